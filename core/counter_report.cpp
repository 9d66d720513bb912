// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/counter_report.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "xenon/core/error_text.hpp"
#include "xenon/core/json_text.hpp"

namespace xenon {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_whole_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const auto fail = [&](int error) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write counters to '" + path + "': " + error_text(error));
  };
  std::FILE* file = std::fopen(temporary.c_str(), "w");
  if (file == nullptr) fail(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const int write_error = errno;
  if (std::fclose(file) != 0 || !written) fail(written ? errno : write_error);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail(errno);
}

}  // namespace

CounterReport::CounterReport(std::string program) : program_(std::move(program)) {}

void CounterReport::add(Counter counter) {
  for (const Counter& existing : counters_) {
    if (existing.name == counter.name) {
      throw std::logic_error("counter '" + counter.name + "' added twice");
    }
  }
  counters_.push_back(std::move(counter));
}

void CounterReport::add_text(std::string name, std::string value) {
  add({std::move(name), Kind::kText, std::move(value), {}});
}

void CounterReport::add_integer(std::string name, std::uint64_t value, std::string unit) {
  add({std::move(name), Kind::kInteger, std::to_string(value), std::move(unit)});
}

void CounterReport::add_real(std::string name, double value, std::string unit) {
  char text[64];
  std::snprintf(text, sizeof text, "%f", value);
  add({std::move(name), Kind::kReal, text, std::move(unit), std::isfinite(value)});
}

void CounterReport::print(std::FILE* out) const {
  for (const Counter& counter : counters_) {
    std::fprintf(out, "PERFORMANCE_COUNTER %s = %s%s%s\n", counter.name.c_str(),
                 counter.value.c_str(), counter.unit.empty() ? "" : " ", counter.unit.c_str());
  }
}

std::string CounterReport::json() const {
  std::string out = "{\n  \"program\": " + json_quoted(program_) + ",\n  \"counters\": {";
  const char* separator = "\n";
  for (const Counter& counter : counters_) {
    out += separator;
    out += "    " + json_quoted(counter.name) + ": ";
    if (counter.kind == Kind::kText) {
      out += json_quoted(counter.value);
    } else {
      out += counter.finite ? counter.value : "null";
    }
    separator = ",\n";
  }
  out += "\n  },\n  \"units\": {";
  separator = "\n";
  for (const Counter& counter : counters_) {
    if (counter.unit.empty()) continue;
    out += separator;
    out += "    " + json_quoted(counter.name) + ": " + json_quoted(counter.unit);
    separator = ",\n";
  }
  return out + "\n  }\n}\n";
}

std::string CounterReport::csv() const {
  std::string out = "name,value,unit\n";
  for (const Counter& counter : counters_) {
    out += csv_field(counter.name) + "," + csv_field(counter.value) + "," +
           csv_field(counter.unit) + "\n";
  }
  return out;
}

void CounterReport::write_json(const std::string& path) const { write_whole_file(path, json()); }

void CounterReport::write_csv(const std::string& path) const { write_whole_file(path, csv()); }

std::string CounterReport::destination_problem(const std::string& path) {
  if (path.empty()) return "empty file name";
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (std::filesystem::is_directory(std::filesystem::path(path))) {
    return "'" + path + "' is a directory";
  }
  if (access(folder.c_str(), W_OK) != 0) {
    return "cannot write in '" + folder + "': " + error_text(errno);
  }
  return {};
}

}  // namespace xenon
