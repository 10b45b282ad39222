// gemmscope trace: make, convert and compare shared-memory access traces
// (docs/traces.md): the model's trace of a ladder kernel, a built-in bank pattern
// as a trace, format conversion, and trace-vs-trace or trace-vs-model comparison;
// and `trace compact`, a golden hardware trace (traces/hw/) rewritten with runs.
// `gemmscope trace record` (the GPU) is in cmd_gpu_trace.cpp.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "options.hpp"
#include "tune/text/output_file.hpp"
#include "gemmscope/model/access_patterns.hpp"
#include "gemmscope/traces/device_decode.hpp"
#include "gemmscope/traces/golden.hpp"
#include "gemmscope/traces/model_traces.hpp"
#include "gemmscope/traces/trace.hpp"
#include "trace_command.hpp"

namespace gemmscope::cli {

std::vector<std::pair<std::string, AddTraceSubcommand>>& trace_subcommands() {
  static std::vector<std::pair<std::string, AddTraceSubcommand>> list;
  return list;
}

TraceSubcommand::TraceSubcommand(std::string name, AddTraceSubcommand add) {
  trace_subcommands().emplace_back(std::move(name), std::move(add));
}

namespace {

struct Output {
  std::string path;  // empty: stdout
  std::string format = "jsonl";
};

void add_output(CLI::App* cmd, Output& out) {
  cmd->add_option("-o,--out", out.path, "Write the trace here (default: standard output)");
  cmd->add_option("--format", out.format, "jsonl (the full format) or text (one instruction a line)")
      ->capture_default_str();
}

// Standard output, or a file written all or nothing (tune/text/output_file.hpp).
class Sink {
 public:
  explicit Sink(const Output& out) : path_(out.path) {
    if (!path_.empty()) file_ = std::make_unique<OutputFile>(path_, "-o");
  }
  void write(const std::string& text) {
    if (file_) file_->write(text);
    else if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size())
      throw std::runtime_error("writing to standard output failed");
  }
  void finish(uint64_t records, traces::TraceFormat f) {
    if (!file_) return;
    file_->commit();
    std::fprintf(stderr, "wrote %s: %llu records (%s)\n", path_.c_str(), static_cast<unsigned long long>(records),
                 std::string(traces::to_string(f)).c_str());
  }

 private:
  std::string path_;
  std::unique_ptr<OutputFile> file_;
};

void emit(const traces::Trace& t, const Output& out) {
  const traces::TraceFormat f = traces::parse_trace_format(out.format);
  const std::string text = traces::write_trace(t, f);  // refuses what would not read back, before any file
  Sink sink(out);
  sink.write(text);
  sink.finish(t.records.size(), f);
}

// Read and written a record at a time. JSON lines out needs the count in its header:
// from a JSON-lines input's header, else from a first pass over the file.
void convert(const std::string& in, const Output& out) {
  const traces::TraceFormat f = traces::parse_trace_format(out.format);
  const std::filesystem::path path(in);
  traces::TraceRecord r;
  uint64_t count = 0;
  {
    traces::TraceReader counting(path);
    if (const auto declared = counting.declared_records()) count = *declared;
    else if (f == traces::TraceFormat::JsonLines)
      while (counting.next(r)) ++count;
  }
  traces::TraceReader reader(path);
  Sink sink(out);
  sink.write(traces::write_trace_header(reader.header(), count, f));
  while (reader.next(r)) sink.write(traces::write_trace_record(reader.header(), r, reader.records_read() - 1, f));
  sink.finish(reader.records_read(), f);
}

struct ModelArgs {
  traces::LadderTraceConfig config;
  long long base = 0;
  bool no_main_loop = false, no_epilogue = false;
  Output out;
};

struct PatternArgs {
  std::string name, swizzle = "none";
  long long base = 0;
  Output out;
};

struct ConvertArgs {
  std::string in;
  Output out;
};

struct CompactArgs {
  std::string in, out;
};

// Checked by compact_golden before anything is written; the file is replaced all or
// nothing, so naming the input as the output loses nothing either.
void compact(const CompactArgs& args) {
  const traces::GoldenTrace before = traces::read_golden(args.in);
  const traces::GoldenTrace after = traces::compact_golden(before);
  const auto bytes_before = std::filesystem::file_size(args.in);
  traces::write_golden_file(args.out, after);
  std::fprintf(stderr, "wrote %s: %s, %zu cases, schema_version %d, %llu -> %llu bytes\n", args.out.c_str(),
               after.probe.c_str(), after.cases.size(), after.schema_version,
               static_cast<unsigned long long>(bytes_before),
               static_cast<unsigned long long>(std::filesystem::file_size(args.out)));
}

struct CompareArgs {
  std::string a, b;
  bool model = false;
};

// Two files read side by side, a record at a time.
void compare_files(const std::string& a_path, const std::string& b_path) {
  traces::TraceReader a{std::filesystem::path(a_path)}, b{std::filesystem::path(b_path)};
  traces::TraceRecord x, y;
  uint64_t i = 0;
  for (;; ++i) {
    const bool more_a = a.next(x), more_b = b.next(y);
    if (!more_a || !more_b) {
      // The longer one is read to its end: its count, and a broken tail refused.
      while (more_a && a.next(x)) {
      }
      while (more_b && b.next(y)) {
      }
      if (a.records_read() != b.records_read())
        throw std::runtime_error("traces differ: record counts " + std::to_string(a.records_read()) + " vs " +
                                 std::to_string(b.records_read()));
      break;
    }
    if (auto diff = traces::record_difference(i, a.header(), x, b.header(), y))
      throw std::runtime_error("traces differ: " + *diff);  // exit status 1
  }
  std::printf("match: %llu records agree (kernel, stage, CTA, warp, width, kind, mask, addresses)\n",
              static_cast<unsigned long long>(i));
}

void compare(const CompareArgs& args) {
  if (!args.model) {
    if (args.b.empty()) throw std::invalid_argument("second trace = (none): give two files, or --model");
    compare_files(args.a, args.b);
    return;
  }
  if (!args.b.empty()) throw std::invalid_argument("--model = set: give one trace file, not two");
  // The model's trace has as many records as the recording's CTAs ask for: the
  // recording is read whole (kMaxRecordsInMemory at most).
  const traces::Trace a = traces::read_trace_file(args.a);
  const traces::Trace b = traces::model_trace_for(a);
  if (auto diff = traces::first_difference(a, b))
    throw std::runtime_error("traces differ: " + *diff);  // exit status 1
  std::printf("match: %zu records agree (kernel, stage, CTA, warp, width, kind, mask, addresses) with the model\n",
              a.records.size());
}

const Registration registration{"trace", [](CLI::App& root) {
  CLI::App* cmd = root.add_subcommand("trace", "Shared-memory access traces: from the model, from patterns, convert, compare");
  cmd->require_subcommand(1);

  auto m = std::make_shared<ModelArgs>();
  CLI::App* model_cmd = cmd->add_subcommand(
      "model", "The model's trace of a ladder kernel (k02, k03, k04): every stage's shared-memory requests for one CTA");
  model_cmd->add_option("--kernel", m->config.kernel, "k02, k03 or k04")->capture_default_str();
  model_cmd->add_option("--k-blocks", m->config.k_blocks, "Main-loop K blocks (64 elements each) to trace")
      ->capture_default_str();
  model_cmd->add_option("--base", m->base, "Shared address of the A tile")->capture_default_str();
  model_cmd->add_option("--cta", m->config.cta, "CTA index the records name")->capture_default_str();
  model_cmd->add_flag("--no-main-loop", m->no_main_loop, "Leave out the TMA writes and wgmma operand reads");
  model_cmd->add_flag("--no-epilogue", m->no_epilogue, "Leave out k04's stmatrix and TMA-store reads");
  add_output(model_cmd, m->out);
  model_cmd->callback([m, model_cmd] {
    if (m->config.kernel != "k04")
      refuse_options(model_cmd, {"--no-epilogue"}, "to " + shown_text(m->config.kernel) + " (only k04 has an epilogue traced)");
    if (m->base < 0) throw std::invalid_argument("--base = " + std::to_string(m->base) + " must be >= 0");
    m->config.smem_base = static_cast<uint64_t>(m->base);
    m->config.main_loop = !m->no_main_loop;
    m->config.epilogue = !m->no_epilogue;
    emit(traces::model_trace(m->config), m->out);
  });

  auto p = std::make_shared<PatternArgs>();
  CLI::App* pattern_cmd =
      cmd->add_subcommand("pattern", "A built-in bank pattern (gemmscope banks --list) as a trace");
  pattern_cmd->add_option("--name", p->name, "Pattern name")->required();
  pattern_cmd->add_option("--swizzle", p->swizzle, "none, 32B, 64B, 128B")->capture_default_str();
  pattern_cmd->add_option("--base", p->base, "Tile base address")->capture_default_str();
  add_output(pattern_cmd, p->out);
  pattern_cmd->callback([p] {
    if (p->base < 0) throw std::invalid_argument("--base = " + std::to_string(p->base) + " must be >= 0");
    emit(traces::pattern_trace(p->name, model::parse_swizzle_mode(p->swizzle), static_cast<uint64_t>(p->base)),
         p->out);
  });

  auto c = std::make_shared<ConvertArgs>();
  CLI::App* convert_cmd = cmd->add_subcommand("convert", "Read a trace (either form), check it, write it again");
  convert_cmd->add_option("input", c->in, "Trace file")->required();
  add_output(convert_cmd, c->out);
  convert_cmd->callback([c] { convert(c->in, c->out); });

  auto g = std::make_shared<CompactArgs>();
  CLI::App* compact_cmd = cmd->add_subcommand(
      "compact",
      "Rewrite a golden hardware trace (traces/hw/*.json) at the current schema with its long observation arrays "
      "as runs; checked to read back to the same values before it is written");
  compact_cmd->add_option("input", g->in, "Golden trace file")->required();
  compact_cmd->add_option("-o,--out", g->out, "Output file (required; naming the input replaces it after the check)")
      ->required();
  compact_cmd->callback([g] { compact(*g); });

  auto k = std::make_shared<CompareArgs>();
  CLI::App* compare_cmd = cmd->add_subcommand(
      "compare",
      "Compare two traces record by record (exit 1 on a difference); --model: a trace of k04's stmatrix stage "
      "recorded on the GPU (trace record) against the model");
  compare_cmd->add_option("a", k->a, "Trace file")->required();
  compare_cmd->add_option("b", k->b, "Second trace file");
  compare_cmd->add_flag("--model", k->model, "Compare with the model's trace of the same CTAs and stages");
  compare_cmd->callback([k] { compare(*k); });

  CLI::App* list_cmd = cmd->add_subcommand("list", "The kernels `trace model` knows");
  list_cmd->callback([] {
    for (const auto& kernel : traces::ladder_trace_kernels())
      std::printf("%-5s %s\n", kernel.name.c_str(), kernel.description.c_str());
  });

  add_gpu_subcommands(cmd, trace_subcommands(), "Record a kernel's shared-memory addresses on the GPU");
}};

}  // namespace
}  // namespace gemmscope::cli
