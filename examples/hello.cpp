// SPDX-License-Identifier: BSD-3-Clause
// Hello world: one actor receives a greeting, prints it and stops; Engine::run() returns
// when no actor is alive. In the tree: make, then build/release/bin/hello --name=you.
// Against an installed Xenon (make install):
//   g++ -std=c++20 hello.cpp -o hello $(pkg-config --cflags --libs xenon)
// or with CMake: find_package(Xenon CONFIG REQUIRED), target_link_libraries(hello Xenon::xenon).
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <xenon/xenon.hpp>

inline constexpr xenon::Action ACTION_GREET{"hello.greet"};

class Greeter : public xenon::Actor {
 public:
  void receive(const xenon::Message& message) override {
    if (message.action() == ACTION_GREET) {
      const auto bytes = message.payload();
      const std::string whom(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      std::printf("hello, %s, from actor %u on worker %d of node %d\n", whom.c_str(),
                  self().index(), worker_index(), node_index());
      stop();  // the last actor: run() returns
    }
  }
};

int main(int argc, char** argv) {
  xenon::EngineOptions options;
  std::string whom = "world";
  xenon::CommandLine command_line("hello", "An actor says hello, then stops.");
  xenon::add_engine_options(command_line, options);
  command_line.add_string("name", &whom, "whom to greet");
  try {
    if (!command_line.parse(argc, argv)) return 0;  // --help or --version
  } catch (const xenon::CommandLineError& error) {
    std::fprintf(stderr, "hello: error: %s\n", error.what());
    return 2;
  }
  try {  // the engine throws when it cannot start (threads, memory, MPI)
    xenon::Engine engine(options);
    const xenon::ActorName greeter = engine.spawn<Greeter>();
    engine.send(greeter, ACTION_GREET, xenon::Payload::copy_of(std::as_bytes(std::span(whom))));
    engine.run();
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hello: error: %s\n", error.what());
    return 1;
  }
}
