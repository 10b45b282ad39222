// libFuzzer target: bench CSV files (gemmscope::report::read_bench_csv,
// tools/report/bench_compare.hpp; what `gemmscope compare` reads).
//
// Findings: a sanitizer report, an exception other than std::invalid_argument (or one
// whose message does not start with the source), or a broken law:
//   - every accepted row has a non-empty kernel and sizes in 1..2^31-1, no (kernel,
//     shape) twice, and a positive finite median where it is measured;
//   - the rows, printed back as CSV written differently (every field quoted, the
//     columns in another order, "\r\n" line ends), read back the same;
//   - compare_runs on the run either refuses it (a message starting "compare:") or
//     gives a positive finite geomean and a minimum no larger than it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "report/bench_compare.hpp"

namespace report = gemmscope::report;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_bench_csv: %s\n", law.c_str());
  std::abort();
}

std::string quoted(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

bool same(const report::BenchCsvRow& a, const report::BenchCsvRow& b) {
  return a.kernel == b.kernel && a.m == b.m && a.n == b.n && a.k == b.k && a.measured == b.measured &&
         (!a.measured || a.median_ms == b.median_ms) && a.label == b.label && a.commit == b.commit &&
         a.gpu == b.gpu && a.note == b.note;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  report::BenchRun run;
  try {
    run = report::read_bench_csv(text, "fuzz.csv");
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).rfind("fuzz.csv: ", 0) != 0)
      broken(std::string("message without the source: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    broken(std::string("an exception other than std::invalid_argument: ") + e.what());
  }
  std::set<std::tuple<std::string, int64_t, int64_t, int64_t>> seen;
  // Another writer: quoted fields, reordered columns, CRLF, and a median printed with
  // 17 significant digits so that it reads back exactly.
  std::string printed = "note,median_ms,k,gpu,n,commit,m,label,kernel\r\n";
  for (const report::BenchCsvRow& r : run.rows) {
    if (r.kernel.empty()) broken("accepted an empty kernel");
    for (const int64_t v : {r.m, r.n, r.k})
      if (v < 1 || v > (int64_t{1} << 31) - 1) broken("accepted a size outside 1..2^31-1");
    if (!seen.insert({r.kernel, r.m, r.n, r.k}).second) broken("accepted a (kernel, shape) twice");
    if (r.measured && !(std::isfinite(r.median_ms) && r.median_ms > 0)) broken("a measured median that is not positive");
    char median[64] = "";
    if (r.measured) std::snprintf(median, sizeof median, "%.17g", r.median_ms);
    printed += quoted(r.note) + "," + quoted(median) + "," + std::to_string(r.k) + "," + quoted(r.gpu) + "," +
               std::to_string(r.n) + "," + quoted(r.commit) + "," + std::to_string(r.m) + "," + quoted(r.label) + "," +
               quoted(r.kernel) + "\r\n";
  }
  report::BenchRun again;
  try {
    again = report::read_bench_csv(printed, "printed.csv");
  } catch (const std::invalid_argument& e) {
    broken(std::string("accepted rows, printed back, are refused: ") + e.what());
  }
  if (again.rows.size() != run.rows.size()) broken("printed back, a different row count");
  for (size_t i = 0; i < run.rows.size(); ++i)
    if (!same(run.rows[i], again.rows[i])) broken("printed back, row " + std::to_string(i) + " reads back different");
  if (!run.rows.empty()) {
    const std::string kernel = run.rows[0].kernel, reference = kernel == "cublas" ? "auto" : "cublas";
    try {
      const report::Comparison c = report::compare_runs({run}, kernel, reference, 0.95);
      const report::RunSummary& s = c.runs.at(0);
      if (!(std::isfinite(s.geomean) && s.geomean > 0) || s.min > s.geomean * (1 + 1e-12))
        broken("a geomean that is not positive and finite, or a minimum above it");
      (void)report::format_comparison(c, 1.05, true);
    } catch (const std::invalid_argument& e) {
      if (std::string_view(e.what()).rfind("compare: ", 0) != 0)
        broken(std::string("a comparison refusal without its prefix: ") + e.what());
    }
  }
  return 0;
}
