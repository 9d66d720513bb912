// SPDX-License-Identifier: BSD-3-Clause
#pragma once

/// \file
/// The typed encoding: one explicit, endian-safe byte format for values that are not raw
/// bytes (strings, vectors, maps, optionals, pairs, structs with a declared field list), the
/// same on every host. README.md, "Typed messages", specifies it byte by byte.

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "xenon/core/typed_bytes.hpp"

namespace xenon {

/// The declared field list of a struct, made by fields(): the members that are encoded, in
/// the order they are encoded.
template <class... Members>
struct FieldList {
  std::tuple<Members...> members;  ///< pointers to data members
};

/// Declares a struct's encoded fields, as a static member named `fields`:
/// \code
/// struct Sample {
///   std::string name;
///   std::vector<double> values;
///   static constexpr auto fields = xenon::fields(&Sample::name, &Sample::values);
/// };
/// \endcode
/// Every field's type must itself be encodable; the struct must be default-constructible
/// (the decoder builds it, then reads each field into it).
template <class... Members>
constexpr FieldList<Members...> fields(Members... members) noexcept {
  static_assert(sizeof...(Members) > 0, "a declared field list names at least one field");
  static_assert((std::is_member_object_pointer_v<Members> && ...),
                "fields() takes pointers to data members: &Type::member");
  return {{members...}};
}

/// \cond XENON_INTERNAL
namespace typed_detail {
template <class T>
struct IsFieldList : std::false_type {};
template <class... Members>
struct IsFieldList<FieldList<Members...>> : std::true_type {};
template <class Member>
struct MemberClass;
template <class Class, class Field>
struct MemberClass<Field Class::*> {
  using type = Class;
  using field = Field;
};
template <class>
inline constexpr bool kUnsupported = false;
}  // namespace typed_detail
/// \endcond

/// A struct with a declared field list (a static member `fields` made by xenon::fields()).
template <class T>
concept DeclaresFields = requires {
  T::fields;
} && typed_detail::IsFieldList<std::remove_cv_t<decltype(T::fields)>>::value;

/// \cond XENON_INTERNAL

// The schema text's FNV-1a 32-bit hash, computed at compile time as the text is produced.
class SchemaHash {
 public:
  constexpr void put(std::string_view text) noexcept {
    for (char c : text) {
      hash_ = (hash_ ^ static_cast<std::uint8_t>(c)) * 16777619u;
    }
  }
  constexpr std::uint32_t value() const noexcept { return hash_; }

 private:
  std::uint32_t hash_ = 2166136261u;
};

// The schema text itself, for error messages and tests.
struct SchemaText {
  std::string text;
  void put(std::string_view part) { text += part; }
};

/// \endcond

/// How one type is encoded. Specialised below for bool, char, the fixed-width integers,
/// enums, float, double, std::string, std::vector, std::map, std::optional, std::pair and
/// DeclaresFields structs; a program may specialise it for a type of its own, giving
/// describe() (its schema text), size(), write() and read(). Every encoding takes at least
/// one byte (the decoder relies on it to bound counts).
template <class T, class = void>
struct Encoding {
  static_assert(typed_detail::kUnsupported<T>,
                "no typed encoding for this type: use a supported one, declare the struct's "
                "fields with xenon::fields(), or specialise xenon::Encoding");
};

/// \cond XENON_INTERNAL

// Integers (not bool, not char, not wchar_t, whose signedness differs between hosts):
// fixed width, two's complement, little-endian. Schema "i8".."i64", "u8".."u64".
template <class T>
struct Encoding<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                    !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t>>> {
  static_assert(sizeof(T) <= 8, "integers of up to 64 bits are encodable");
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    constexpr std::string_view kSigned[] = {"", "i8", "i16", "", "i32", "", "", "", "i64"};
    constexpr std::string_view kUnsigned[] = {"", "u8", "u16", "", "u32", "", "", "", "u64"};
    schema.put(std::is_signed_v<T> ? kSigned[sizeof(T)] : kUnsigned[sizeof(T)]);
  }
  static std::size_t size(const T&) noexcept { return sizeof(T); }
  static void write(TypedWriter& out, const T& value) {
    out.put_le(static_cast<std::make_unsigned_t<T>>(value), sizeof(T));
  }
  static void read(TypedReader& in, T& value) {
    // Conversion to a signed type is modular (C++20): the bits come back unchanged.
    value = static_cast<T>(static_cast<std::make_unsigned_t<T>>(in.take_le(sizeof(T), "integer")));
  }
};

// char: one byte, whatever the host's signedness of char. Schema "char".
template <>
struct Encoding<char> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("char");
  }
  static std::size_t size(char) noexcept { return 1; }
  static void write(TypedWriter& out, char value) { out.put_byte(static_cast<std::uint8_t>(value)); }
  static void read(TypedReader& in, char& value) { value = static_cast<char>(in.take_byte("char")); }
};

// bool: one byte, 0 or 1; any other byte is malformed. Schema "bool".
template <>
struct Encoding<bool> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("bool");
  }
  static std::size_t size(bool) noexcept { return 1; }
  static void write(TypedWriter& out, bool value) { out.put_byte(value ? 1 : 0); }
  static void read(TypedReader& in, bool& value) {
    const std::size_t at = in.position();
    const std::uint8_t byte = in.take_byte("bool");
    if (byte > 1) in.fail_at(at, "bool", "byte " + std::to_string(byte) + " is neither 0 nor 1");
    value = byte == 1;
  }
};

// Enums: as their underlying integer (any value is accepted back).
template <class T>
struct Encoding<T, std::enable_if_t<std::is_enum_v<T>>> {
  using Underlying = std::underlying_type_t<T>;
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    Encoding<Underlying>::describe(schema);
  }
  static std::size_t size(const T&) noexcept { return sizeof(Underlying); }
  static void write(TypedWriter& out, const T& value) {
    Encoding<Underlying>::write(out, static_cast<Underlying>(value));
  }
  static void read(TypedReader& in, T& value) {
    Underlying raw{};
    Encoding<Underlying>::read(in, raw);
    value = static_cast<T>(raw);
  }
};

// float and double: their IEEE 754 binary32 / binary64 bits, little-endian. Schema "f32",
// "f64". (Every NaN keeps its bits.)
template <class T>
struct Encoding<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static_assert(std::numeric_limits<T>::is_iec559 && (sizeof(T) == 4 || sizeof(T) == 8),
                "float and double are encodable (IEEE 754 binary32 and binary64)");
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put(sizeof(T) == 4 ? "f32" : "f64");
  }
  static std::size_t size(const T&) noexcept { return sizeof(T); }
  static void write(TypedWriter& out, const T& value) {
    out.put_le(std::bit_cast<Bits>(value), sizeof(T));
  }
  static void read(TypedReader& in, T& value) {
    value = std::bit_cast<T>(static_cast<Bits>(in.take_le(sizeof(T), "floating-point number")));
  }
};

// std::string: varint byte count, then the bytes as they are. Schema "string".
template <>
struct Encoding<std::string> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("string");
  }
  static std::size_t size(const std::string& value) noexcept {
    return TypedWriter::varint_size(value.size()) + value.size();
  }
  static void write(TypedWriter& out, const std::string& value) {
    out.put_varint(value.size());
    out.put_bytes(value.data(), value.size());
  }
  static void read(TypedReader& in, std::string& value) {
    const std::size_t length = in.take_count("string length");
    value.assign(reinterpret_cast<const char*>(in.take(length, "string")), length);
  }
};

// std::vector<T>: varint element count, then each element. Schema "vector<T>". A vector of
// numbers is one block copy on a little-endian host, whose memory already holds the encoding.
template <class T, class Allocator>
struct Encoding<std::vector<T, Allocator>> {
  static constexpr bool kBlockCopy = std::endian::native == std::endian::little &&
                                     std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("vector<");
    Encoding<T>::describe(schema);
    schema.put(">");
  }
  static std::size_t size(const std::vector<T, Allocator>& values) {
    std::size_t total = TypedWriter::varint_size(values.size());
    if constexpr (kBlockCopy) return total + values.size() * sizeof(T);
    for (const T& value : values) total += Encoding<T>::size(value);
    return total;
  }
  static void write(TypedWriter& out, const std::vector<T, Allocator>& values) {
    out.put_varint(values.size());
    if constexpr (kBlockCopy) {
      out.put_bytes(values.data(), values.size() * sizeof(T));
      return;
    }
    for (const T& value : values) Encoding<T>::write(out, value);
  }
  static void read(TypedReader& in, std::vector<T, Allocator>& values) {
    const std::size_t count = in.take_count("vector length");
    values.clear();
    if constexpr (kBlockCopy) {
      const std::byte* bytes = in.take(count * sizeof(T), "vector elements");
      values.resize(count);
      if (count != 0) std::memcpy(values.data(), bytes, count * sizeof(T));
      return;
    }
    values.reserve(count);  // bounded: at most one element per byte left
    for (std::size_t i = 0; i < count; ++i) {
      T value{};
      Encoding<T>::read(in, value);
      values.push_back(std::move(value));
    }
  }
};

// std::map<K, V>: varint entry count, then key and value of each entry in increasing key
// order, as the map holds them. Keys out of order or repeated are malformed (one encoding
// per map). Schema "map<K,V>".
template <class K, class V, class Compare, class Allocator>
struct Encoding<std::map<K, V, Compare, Allocator>> {
  using Map = std::map<K, V, Compare, Allocator>;
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("map<");
    Encoding<K>::describe(schema);
    schema.put(",");
    Encoding<V>::describe(schema);
    schema.put(">");
  }
  static std::size_t size(const Map& map) {
    std::size_t total = TypedWriter::varint_size(map.size());
    for (const auto& [key, value] : map) total += Encoding<K>::size(key) + Encoding<V>::size(value);
    return total;
  }
  static void write(TypedWriter& out, const Map& map) {
    out.put_varint(map.size());
    for (const auto& [key, value] : map) {
      Encoding<K>::write(out, key);
      Encoding<V>::write(out, value);
    }
  }
  static void read(TypedReader& in, Map& map) {
    const std::size_t count = in.take_count("map size");
    map.clear();
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = in.position();
      K key{};
      Encoding<K>::read(in, key);
      if (!map.empty() && !map.key_comp()(std::prev(map.end())->first, key)) {
        in.fail_at(at, "map key", "not greater than the key before it (repeated or unsorted)");
      }
      V value{};
      Encoding<V>::read(in, value);
      map.emplace_hint(map.end(), std::move(key), std::move(value));
    }
  }
};

// std::optional<T>: one byte, 0 (empty) or 1 followed by the value. Schema "optional<T>".
template <class T>
struct Encoding<std::optional<T>> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("optional<");
    Encoding<T>::describe(schema);
    schema.put(">");
  }
  static std::size_t size(const std::optional<T>& value) {
    return 1 + (value ? Encoding<T>::size(*value) : 0);
  }
  static void write(TypedWriter& out, const std::optional<T>& value) {
    out.put_byte(value ? 1 : 0);
    if (value) Encoding<T>::write(out, *value);
  }
  static void read(TypedReader& in, std::optional<T>& value) {
    const std::size_t at = in.position();
    const std::uint8_t flag = in.take_byte("optional flag");
    if (flag > 1) {
      in.fail_at(at, "optional flag", "byte " + std::to_string(flag) + " is neither 0 nor 1");
    }
    if (flag == 0) {
      value.reset();
      return;
    }
    // Read into a local and move it in: reading in place through emplace() makes GCC 12
    // warn (wrongly) of an uninitialised read on some targets.
    T inner{};
    Encoding<T>::read(in, inner);
    value = std::move(inner);
  }
};

// std::pair<A, B>: first, then second. Schema "pair<A,B>".
template <class A, class B>
struct Encoding<std::pair<A, B>> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("pair<");
    Encoding<A>::describe(schema);
    schema.put(",");
    Encoding<B>::describe(schema);
    schema.put(">");
  }
  static std::size_t size(const std::pair<A, B>& value) {
    return Encoding<A>::size(value.first) + Encoding<B>::size(value.second);
  }
  static void write(TypedWriter& out, const std::pair<A, B>& value) {
    Encoding<A>::write(out, value.first);
    Encoding<B>::write(out, value.second);
  }
  static void read(TypedReader& in, std::pair<A, B>& value) {
    Encoding<A>::read(in, value.first);
    Encoding<B>::read(in, value.second);
  }
};

// A struct with a declared field list: its fields in the declared order, nothing between
// them. Schema "{F1,F2,...}" (structural: the field names and the struct's name are not
// part of it).
template <DeclaresFields T>
struct Encoding<T> {
  template <class Member>
  using Field = typename typed_detail::MemberClass<Member>::field;

  template <class Function>
  static constexpr void for_each_field(Function&& function) {
    std::apply([&](auto... members) { (function(members), ...); }, T::fields.members);
  }
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("{");
    bool first = true;
    for_each_field([&](auto member) {
      static_assert(std::is_base_of_v<typename typed_detail::MemberClass<decltype(member)>::type, T>,
                    "a declared field is a member of the struct (or of a base)");
      if (!first) schema.put(",");
      first = false;
      Encoding<Field<decltype(member)>>::describe(schema);
    });
    schema.put("}");
  }
  static std::size_t size(const T& value) {
    std::size_t total = 0;
    for_each_field([&](auto member) { total += Encoding<Field<decltype(member)>>::size(value.*member); });
    return total;
  }
  static void write(TypedWriter& out, const T& value) {
    for_each_field([&](auto member) { Encoding<Field<decltype(member)>>::write(out, value.*member); });
  }
  static void read(TypedReader& in, T& value) {
    for_each_field([&](auto member) { Encoding<Field<decltype(member)>>::read(in, value.*member); });
  }
};

/// \endcond

/// \name The typed encoding of one value
/// A typed payload is the 4-byte little-endian schema fingerprint of T, then the value's
/// encoding. \threads Pure functions: any thread.
//!@{

/// T's schema text, e.g. "map<string,vector<i32>>" (README.md gives the grammar).
template <class T>
std::string typed_schema_text() {
  SchemaText schema;
  Encoding<T>::describe(schema);
  return schema.text;
}

/// The FNV-1a 32-bit hash of T's schema text: the first 4 bytes of its typed payloads, so
/// that a payload is not read back as another type.
template <class T>
constexpr std::uint32_t typed_schema_fingerprint() {
  SchemaHash schema;
  Encoding<T>::describe(schema);
  return schema.value();
}

/// The size in bytes of `value`'s typed payload (fingerprint included).
template <class T>
std::size_t typed_encoded_size(const T& value) {
  return 4 + Encoding<T>::size(value);
}

/// Writes `value`'s typed payload into `out`, which holds exactly typed_encoded_size(value)
/// bytes (std::logic_error otherwise).
template <class T>
void typed_encode_into(const T& value, std::span<std::byte> out) {
  TypedWriter writer(out);
  writer.put_le(typed_schema_fingerprint<T>(), 4);
  Encoding<T>::write(writer, value);
  if (writer.position() != out.size()) {
    throw std::logic_error("typed encoding: the value wrote fewer bytes than its size() reported");
  }
}

/// `value`'s typed payload as a byte vector.
template <class T>
std::vector<std::byte> typed_encode(const T& value) {
  std::vector<std::byte> bytes(typed_encoded_size(value));
  typed_encode_into(value, bytes);
  return bytes;
}

/// Reads back a value of type T from its typed payload. Throws TypedDecodeError, naming the
/// problem and the byte, if the payload holds another type (fingerprint), is truncated (a
/// length running past the end), malformed (a bool or optional flag not 0 or 1, a varint
/// not in its shortest form or over 64 bits, map keys out of order), or has bytes left over.
/// Never reads outside `bytes`.
template <class T>
T typed_decode(std::span<const std::byte> bytes) {
  TypedReader reader(bytes);
  const auto fingerprint = static_cast<std::uint32_t>(reader.take_le(4, "schema fingerprint"));
  if (fingerprint != typed_schema_fingerprint<T>()) {
    reader.fail_at(0, "schema fingerprint",
                   "the payload holds another type (fingerprint " + std::to_string(fingerprint) +
                       ", expected " + std::to_string(typed_schema_fingerprint<T>()) + " for " +
                       typed_schema_text<T>() + ")");
  }
  T value{};
  Encoding<T>::read(reader, value);
  if (reader.remaining() != 0) {
    reader.fail("value", std::to_string(reader.remaining()) + " bytes left over after it");
  }
  return value;
}
//!@}

}  // namespace xenon
