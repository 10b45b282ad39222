// gemmscope viz: bank pictures through Graphviz. A trace: a bank-by-stage heat map,
// or (--instruction N) one instruction's lanes-to-banks graph with conflicts and
// wavefronts; --swizzle: a tile's 16-byte chunks coloured by bank. The output's
// extension picks the form: .svg, .png (run `dot`), .dot or .gv (the DOT text).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/graphviz.hpp"
#include "gemmscope/traces/trace.hpp"

extern char** environ;

namespace gemmscope::cli {
namespace {

struct VizArgs {
  std::string trace;
  std::string out;
  long long instruction = -1;
  std::string swizzle;
  uint32_t rows = 8;
  uint32_t row_bytes = 128;
  long long base = 0;
  std::string title;
  std::string dot = "dot";
};

// Runs `dot -T<format> dot_file -o out` without a shell; throws when dot fails.
void run_dot(const std::string& dot, const std::string& format, const std::string& dot_file, const std::string& out) {
  std::vector<std::string> args = {dot, "-T" + format, dot_file, "-o", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, dot.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot run '" + dot + "': install Graphviz (tools/setup) or pass --dot PATH");
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("'" + dot + " -T" + format + "' failed on " + dot_file);
}

void write_picture(const std::string& dot_text, const VizArgs& args) {
  const std::filesystem::path out(args.out);
  const std::string ext = out.extension().string();
  if (ext == ".dot" || ext == ".gv") {
    std::ofstream f(out);
    if (!f) throw std::invalid_argument("-o = " + args.out + " cannot be opened for writing");
    f << dot_text;
    return;
  }
  if (ext != ".svg" && ext != ".png")
    throw std::invalid_argument("-o = " + args.out + " must end in .svg, .png, .dot or .gv");
  const std::string tmp = args.out + ".tmp.dot";
  {
    std::ofstream f(tmp);
    if (!f) throw std::invalid_argument("-o = " + args.out + ": cannot write next to it (" + tmp + ")");
    f << dot_text;
  }
  try {
    run_dot(args.dot, ext.substr(1), tmp, args.out);
  } catch (...) {
    std::filesystem::remove(tmp);
    throw;
  }
  std::filesystem::remove(tmp);
  std::fprintf(stderr, "wrote %s\n", args.out.c_str());
}

void run(const VizArgs& args) {
  if (args.out.empty()) throw std::invalid_argument("-o = (none): give the output file (.svg, .png, .dot)");
  if (!args.swizzle.empty()) {
    if (!args.trace.empty())
      throw std::invalid_argument("--swizzle = " + args.swizzle + ": give either a trace or --swizzle, not both");
    if (args.base < 0) throw std::invalid_argument("--base = " + std::to_string(args.base) + " must be >= 0");
    write_picture(traces::swizzle_dot(model::parse_swizzle_mode(args.swizzle), args.rows, args.row_bytes,
                                      static_cast<uint64_t>(args.base)),
                  args);
    return;
  }
  if (args.trace.empty()) throw std::invalid_argument("trace = (none): give a trace file, or --swizzle MODE");
  const traces::Trace t = traces::read_trace_file(args.trace);
  if (args.instruction >= 0) {
    write_picture(traces::instruction_dot(t, static_cast<size_t>(args.instruction), args.title), args);
    return;
  }
  write_picture(traces::heatmap_dot(t, traces::analyze_trace(t), args.title), args);
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
  cmd->callback([args] { run(*args); });
}};

}  // namespace
}  // namespace gemmscope::cli
