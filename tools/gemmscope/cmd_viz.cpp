// gemmscope viz: bank pictures through Graphviz. A trace: a bank-by-stage heat map,
// or (--instruction N) one instruction's lanes-to-banks graph with conflicts and
// wavefronts; --swizzle: a tile's 16-byte chunks coloured by bank. The output's
// extension picks the form: .svg, .png (run `dot`), .dot or .gv (the DOT text).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "options.hpp"
#include "tune/text/output_file.hpp"
#include "tune/text/shown_text.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/graphviz.hpp"
#include "gemmscope/traces/trace.hpp"

extern char** environ;

namespace gemmscope::cli {
namespace {

struct VizArgs {
  std::string trace;
  std::string out;
  long long instruction = 0;
  std::string swizzle;
  uint32_t rows = 8;
  uint32_t row_bytes = 128;
  long long base = 0;
  std::string title;
  std::string dot = "dot";
};

// Runs `dot -T<format> -o out` without a shell, the DOT text on its standard input
// (no file beside the output to name, overwrite or leave behind); throws when dot
// cannot be run or fails.
void run_dot(const std::string& dot, const std::string& format, const std::string& dot_text, const std::string& out) {
  std::vector<std::string> args = {dot, "-T" + format, "-o", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, dot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[0]);
  if (spawned != 0) {
    ::close(pipe_fds[1]);
    throw std::invalid_argument("--dot = " + dot + ": cannot run it (" + std::strerror(spawned) +
                                "); install Graphviz (tools/setup) or pass --dot PATH");
  }
  // dot may stop reading early (a bad --dot program): a write then fails with EPIPE
  // instead of the signal ending gemmscope.
  struct sigaction ignore {}, saved {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &saved);
  std::string_view rest = dot_text;
  while (!rest.empty()) {
    const ssize_t n = ::write(pipe_fds[1], rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    rest.remove_prefix(static_cast<size_t>(n));
  }
  ::close(pipe_fds[1]);
  ::sigaction(SIGPIPE, &saved, nullptr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !rest.empty())
    throw std::runtime_error("'" + dot + " -T" + format + "' failed on the picture's DOT text");
}

void write_picture(const std::string& dot_text, const VizArgs& args) {
  const std::filesystem::path out(args.out);
  const std::string ext = out.extension().string();
  if (ext == ".dot" || ext == ".gv") {
    write_output_file(args.out, dot_text, "-o");
    std::fprintf(stderr, "wrote %s\n", args.out.c_str());
    return;
  }
  OutputFile file(args.out, "-o");
  run_dot(args.dot, ext.substr(1), dot_text, file.temporary_path());
  file.commit();
  std::fprintf(stderr, "wrote %s\n", args.out.c_str());
}

// One record of a streamed trace: read up to it, then on to the end (the count for
// the message, and the rest of the file checked like any reader would).
std::string instruction_picture(traces::TraceReader& reader, uint64_t index, const std::string& title) {
  traces::TraceRecord record, wanted;
  uint64_t count = 0;
  while (reader.next(record)) {
    if (count == index) wanted = record;
    ++count;
  }
  if (index >= count)
    throw std::invalid_argument("--instruction = " + std::to_string(index) + " must be below the trace's " +
                                std::to_string(count) + " records");
  return traces::instruction_dot(reader.header(), wanted, static_cast<size_t>(index), title);
}

void run(const VizArgs& args, const CLI::App* cmd) {
  if (args.out.empty()) throw std::invalid_argument("-o = (none): give the output file (.svg, .png, .dot)");
  const std::string ext = std::filesystem::path(args.out).extension().string();
  if (ext != ".svg" && ext != ".png" && ext != ".dot" && ext != ".gv")
    throw std::invalid_argument("-o = " + shown_text(args.out) + " must end in .svg, .png, .dot or .gv");
  if (ext == ".dot" || ext == ".gv") refuse_options(cmd, {"--dot"}, "to a " + ext + " output (dot is not run)");
  if (!args.swizzle.empty() || given(cmd, "--swizzle")) {
    if (!args.trace.empty())
      throw std::invalid_argument("--swizzle = " + args.swizzle + ": give either a trace or --swizzle, not both");
    refuse_options(cmd, {"--instruction", "--title"}, "with --swizzle (a tile's chunks, titled by its geometry)");
    if (args.base < 0) throw std::invalid_argument("--base = " + std::to_string(args.base) + " must be >= 0");
    write_picture(traces::swizzle_dot(model::parse_swizzle_mode(args.swizzle), args.rows, args.row_bytes,
                                      static_cast<uint64_t>(args.base)),
                  args);
    return;
  }
  refuse_options(cmd, {"--rows", "--row-bytes", "--base"}, "without --swizzle (they describe a swizzle's tile)");
  if (args.trace.empty()) throw std::invalid_argument("trace = (none): give a trace file, or --swizzle MODE");
  if (args.instruction < 0)
    throw std::invalid_argument("--instruction = " + std::to_string(args.instruction) +
                                " must be >= 0 (a record's index)");
  traces::TraceReader reader{std::filesystem::path(args.trace)};
  if (given(cmd, "--instruction")) {
    write_picture(instruction_picture(reader, static_cast<uint64_t>(args.instruction), args.title), args);
    return;
  }
  traces::TraceAnalyzer analyzer(reader.header());
  traces::TraceRecord record;
  while (reader.next(record)) analyzer.add(record);
  const uint64_t records = analyzer.records();
  write_picture(traces::heatmap_dot(reader.header(), records, std::move(analyzer).finish(), args.title), args);
}

const Registration registration{"viz", [](CLI::App& root) {
  auto args = std::make_shared<VizArgs>();
  CLI::App* cmd = root.add_subcommand(
      "viz", "Bank pictures via Graphviz: a trace's bank-by-stage heat map, one instruction's lanes->banks, a swizzle");
  cmd->add_option("trace", args->trace, "Trace file (docs/traces.md), JSON lines or the text form");
  cmd->add_option("-o,--out", args->out, "Output: .svg or .png (runs dot), .dot or .gv (DOT text)")->required();
  cmd->add_option("--instruction", args->instruction, "Draw record N (0-based) of the trace: lanes -> banks");
  cmd->add_option("--swizzle", args->swizzle, "Draw a tile's chunks under this swizzle: none, 32B, 64B, 128B");
  cmd->add_option("--rows", args->rows, "With --swizzle: tile rows")->capture_default_str();
  cmd->add_option("--row-bytes", args->row_bytes, "With --swizzle: bytes per row")->capture_default_str();
  cmd->add_option("--base", args->base, "With --swizzle: tile base address")->capture_default_str();
  cmd->add_option("--title", args->title, "Picture title (default: from the trace)");
  cmd->add_option("--dot", args->dot, "The Graphviz program")->capture_default_str();
  cmd->callback([args, cmd] { run(*args, cmd); });
}};

}  // namespace
}  // namespace gemmscope::cli
