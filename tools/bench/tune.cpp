// gemmscope tune (bench/tune.hpp): the parent process orchestrates and keeps the
// cache; a forked child per shape does all the CUDA work and reports line by line
// through a pipe:
//   env <gpu> <cuda> <driver> <sms>     run <config>           (before each launch)
//   ok <config> <median_ms>            fail <config> <reason>
//   cublas <median_ms>                 nogpu <why>
// Fields are tab-separated; reasons have tabs and newlines replaced.
#include "bench/tune.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/harness.hpp"
#include "gemmscope/kernel_registry.hpp"
#include "gemmscope/tuned.hpp"
#include "sm90/ladder.hpp"
#include "tune/cache.hpp"
#include "tune/config.hpp"
#include "tune/text/line_reader.hpp"

namespace gemmscope::harness {
namespace {

std::string clean(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == '\t') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// ---- child: the CUDA side of one shape --------------------------------------

// Sampled double-precision reference: rows {0, M-1, 6 random} x every column and
// columns {0, N-1, 6 random} x every row, with harness::compare's bound
// |c - r| <= 2^-8 |r| + K 2^-23 sum|a b|; NaN/Inf fail.
struct Samples {
  std::vector<int64_t> rows, cols;
  std::vector<double> row_ref, row_abs, col_ref, col_abs;  // [rows.size()][N], [cols.size()][M]
};

Samples sample_reference(const HostProblem& p, uint64_t seed) {
  const GemmShape s = p.shape;
  Samples out;
  std::mt19937_64 rng(seed ^ 0x5eed);
  auto pick = [&](int64_t extent) {
    std::set<int64_t> chosen{0, extent - 1};
    for (int i = 0; i < 6; ++i) chosen.insert(static_cast<int64_t>(rng() % static_cast<uint64_t>(extent)));
    return std::vector<int64_t>(chosen.begin(), chosen.end());
  };
  out.rows = pick(s.m);
  out.cols = pick(s.n);
  // Straight from the bf16 inputs (no double copy of A and B: the weights reach 470M elements).
  auto dot = [&](int64_t r, int64_t c, double& ref, double& abs) {
    const bf16* x = &p.a[static_cast<size_t>(r * s.k)];
    const bf16* y = &p.b[static_cast<size_t>(c * s.k)];
    double acc = 0, acc_abs = 0;
    for (int64_t k = 0; k < s.k; ++k) {
      const double xy = static_cast<double>(__bfloat162float(x[k])) * __bfloat162float(y[k]);
      acc += xy, acc_abs += std::abs(xy);
    }
    ref = acc, abs = acc_abs;
  };
  out.row_ref.resize(out.rows.size() * s.n);
  out.row_abs.resize(out.row_ref.size());
  out.col_ref.resize(out.cols.size() * s.m);
  out.col_abs.resize(out.col_ref.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t i = 0; i < static_cast<int64_t>(out.rows.size()) * s.n; ++i)
    dot(out.rows[i / s.n], i % s.n, out.row_ref[i], out.row_abs[i]);
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t i = 0; i < static_cast<int64_t>(out.cols.size()) * s.m; ++i)
    dot(i % s.m, out.cols[i / s.m], out.col_ref[i], out.col_abs[i]);
  return out;
}

// Empty when C (on the device) matches the samples.
std::string check_samples(const GemmShape& s, const bf16* c, const Samples& smp) {
  const double k_term = static_cast<double>(s.k) * std::ldexp(1.0, -23);
  int64_t bad = 0, checked = 0;
  std::string first;
  auto test = [&](double got, double want, double abs, int64_t r, int64_t col) {
    ++checked;
    const double bound = std::ldexp(std::abs(want), -8) + k_term * abs + 1e-30;
    if (!std::isfinite(got) || std::abs(got - want) > bound) {
      if (bad++ == 0) {
        std::ostringstream os;
        os << "C[" << r << "][" << col << "] = " << got << ", expected " << want << " (bound " << bound << ")";
        first = os.str();
      }
    }
  };
  std::vector<bf16> row(static_cast<size_t>(s.n)), col(static_cast<size_t>(s.m));
  for (size_t i = 0; i < smp.rows.size(); ++i) {
    check_cuda(cudaMemcpy(row.data(), c + smp.rows[i] * s.n, s.n * 2, cudaMemcpyDeviceToHost), "tune check row");
    for (int64_t j = 0; j < s.n; ++j)
      test(__bfloat162float(row[j]), smp.row_ref[i * s.n + j], smp.row_abs[i * s.n + j], smp.rows[i], j);
  }
  for (size_t i = 0; i < smp.cols.size(); ++i) {
    check_cuda(cudaMemcpy2D(col.data(), 2, c + smp.cols[i], s.n * 2, 2, s.m, cudaMemcpyDeviceToHost), "tune check col");
    for (int64_t j = 0; j < s.m; ++j)
      test(__bfloat162float(col[j]), smp.col_ref[i * s.m + j], smp.col_abs[i * s.m + j], j, smp.cols[i]);
  }
  if (bad == 0) return {};
  return "wrong result: " + std::to_string(bad) + " of " + std::to_string(checked) + " sampled elements out of bound, first " +
         first;
}

bool context_alive() {
  cudaGetLastError();
  return cudaDeviceSynchronize() == cudaSuccess;
}

int tune_child(const tune::NamedShape& ns, const std::set<std::string>& excluded, const TuneOptions& opt,
               const tune::TuneCache& cache, uint64_t seed, FILE* out) {
  auto say = [&](const std::string& line) {
    std::fputs((line + "\n").c_str(), out);
    std::fflush(out);
  };
  std::string why;
  if (!gpu_available(&why)) {
    say("nogpu\t" + clean(why));
    return 3;
  }
  const GemmShape s{ns.m, ns.n, ns.k};
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "properties");
  const tune::TuneKey key = tune_key_here(s);
  say("env\t" + clean(key.gpu) + "\t" + clean(key.cuda) + "\t" + clean(key.driver) + "\t" +
      std::to_string(prop.multiProcessorCount));

  // A selection (--configs) is timed together with the cache's entry for the shape.
  const tune::TuneEntry* held = opt.only.empty() ? nullptr : cache.find(key);
  const std::string incumbent = held ? held->config : std::string();
  const std::vector<tune::KernelConfig> list =
      tune::sweep_list(tune::candidates({s.m, s.n, s.k}, prop.multiProcessorCount), excluded, opt.only, incumbent);
  if (held) say("incumbent\t" + clean(incumbent));
  say("count\t" + std::to_string(list.size()));

  const HostProblem p = HostProblem::random(s, seed);
  const Samples smp = sample_reference(p, seed);
  struct Set {
    bf16 *a = nullptr, *b = nullptr, *c = nullptr;
  };
  const int sets = rotation_sets(s, prop.l2CacheSize);
  std::vector<Set> bufs(sets);
  for (auto& b : bufs) {
    check_cuda(cudaMalloc(&b.a, p.a.size() * 2), "tune A");
    check_cuda(cudaMalloc(&b.b, p.b.size() * 2), "tune B");
    check_cuda(cudaMalloc(&b.c, static_cast<size_t>(s.m * s.n) * 2), "tune C");
    check_cuda(cudaMemcpy(b.a, p.a.data(), p.a.size() * 2, cudaMemcpyHostToDevice), "tune upload A");
    check_cuda(cudaMemcpy(b.b, p.b.data(), p.b.size() * 2, cudaMemcpyHostToDevice), "tune upload B");
  }
  cudaStream_t stream;
  check_cuda(cudaStreamCreate(&stream), "stream");
  const RunnableKernel cublas = resolve_kernel("cublas");
  cublas.prepare(s, stream);

  // 1. Correctness on set 0 (C poisoned with NaN first).
  struct Candidate {
    tune::KernelConfig config;
    std::string name;
  };
  std::vector<Candidate> alive;
  const GemmOperands ops0{bufs[0].a, bufs[0].b, bufs[0].c};
  for (const auto& c : list) {
    const std::string name = tune::to_string(c);
    if (auto refusal = sm90::k10::can_implement(c, s, ops0); !refusal.empty()) {
      say("fail\t" + name + "\t" + clean(refusal));
      continue;
    }
    say("run\t" + name);
    std::string failure;
    try {
      check_cuda(cudaMemsetAsync(bufs[0].c, 0xFF, static_cast<size_t>(s.m * s.n) * 2, stream), "poison C");
      sm90::k10::launch(c, s, ops0, stream);
      check_cuda(cudaStreamSynchronize(stream), "running it");
      failure = check_samples(s, bufs[0].c, smp);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (!failure.empty()) {
      say("fail\t" + name + "\t" + clean(failure));
      if (!context_alive()) return 4;  // the parent restarts this shape without it
      continue;
    }
    alive.push_back({c, name});
  }

  // 2. Timing: every round runs cuBLAS and each surviving candidate in a batch of
  // `launches` back to back (2 in the first round; kBatchLaunches, as bench, in the
  // refine round), rotating through the buffer sets; median of the timed rounds' events.
  static_assert(kFirstRoundLaunches <= kBatchLaunches, "a batch holds at most kBatchLaunches");
  BatchTimer timer;
  std::vector<float> cublas_times;
  int slot = 0;
  auto time_batch = [&](int launches, auto&& run, std::vector<float>* sink) {
    const std::vector<float> ms = timer.time(
        stream, launches,
        [&](int) {
          const Set& b = bufs[slot];
          slot = (slot + 1) % sets;
          run(GemmOperands{b.a, b.b, b.c});
        },
        "timing");
    if (sink) sink->insert(sink->end(), ms.begin(), ms.end());
  };
  // Rounds of cuBLAS and the candidates `which` (indices into alive), `untimed` of
  // them first; candidate which[j]'s times go to times[j]. A candidate that throws is
  // reported failed and dropped. False when the CUDA context is lost.
  std::vector<bool> dropped(alive.size(), false);
  auto rounds = [&](const std::vector<size_t>& which, int launches, int untimed, int timed,
                    std::vector<float>& cublas_sink, std::vector<std::vector<float>>& times) {
    times.assign(which.size(), {});
    for (int round = 0; round < untimed + timed; ++round) {
      const bool keep = round >= untimed;
      time_batch(launches, [&](const GemmOperands& o) { cublas.launch(s, o, stream); }, keep ? &cublas_sink : nullptr);
      for (size_t j = 0; j < which.size(); ++j) {
        const size_t i = which[j];
        if (dropped[i]) continue;
        say("run\t" + alive[i].name);
        try {
          time_batch(
              launches, [&](const GemmOperands& o) { sm90::k10::launch(alive[i].config, s, o, stream); },
              keep ? &times[j] : nullptr);
        } catch (const std::exception& e) {
          say("fail\t" + alive[i].name + "\t" + clean(e.what()));
          dropped[i] = true;
          if (!context_alive()) return false;
        }
      }
    }
    return true;
  };
  std::vector<size_t> everyone(alive.size());
  for (size_t i = 0; i < alive.size(); ++i) everyone[i] = i;
  std::vector<std::vector<float>> times;
  if (!rounds(everyone, kFirstRoundLaunches, opt.warmup, opt.repeats, cublas_times, times)) return 4;
  say("cublas\t" + std::to_string(median_of(cublas_times)));
  std::vector<double> medians(alive.size(), std::numeric_limits<double>::infinity());
  for (size_t i = 0; i < alive.size(); ++i)
    if (!dropped[i]) {
      medians[i] = median_of(times[i]);
      say("ok\t" + alive[i].name + "\t" + std::to_string(medians[i]));
    }

  // 3. Refine: the few fastest are timed again, with cuBLAS, on rounds of their own
  // (one untimed) in bench's batches, and the pick is made on these rounds alone.
  const std::vector<size_t> picks = tune::refine_picks(medians, opt.refine, kRefineSpread);
  if (picks.empty()) return 0;
  std::vector<float> cublas_again;
  if (!rounds(picks, kBatchLaunches, 1, opt.refine_repeats, cublas_again, times)) return 4;
  say("cublas-refined\t" + std::to_string(median_of(cublas_again)));
  for (size_t j = 0; j < picks.size(); ++j)
    if (!dropped[picks[j]]) say("refined\t" + alive[picks[j]].name + "\t" + std::to_string(median_of(times[j])));
  return 0;
}

// ---- parent ------------------------------------------------------------------

std::string fmt_duration(double seconds) {
  if (!(seconds >= 0) || seconds > 86400 * 7) return "?";
  const int s = static_cast<int>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof(buf), "%dh%02dm", s / 3600, s / 60 % 60);
  else std::snprintf(buf, sizeof(buf), "%dm%02ds", s / 60, s % 60);
  return buf;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

}  // namespace

void run_tune(const TuneOptions& opt, tune::TuneCache cache) {
  // Work estimate for the time left: flops x candidates per shape (candidates known
  // once the first child has said how many SMs there are).
  int sms = 0;
  auto shape_work = [&](const tune::NamedShape& ns) {
    const double flops = 2.0 * ns.m * ns.n * ns.k;
    const double n = sms > 0 ? static_cast<double>(tune::candidates({ns.m, ns.n, ns.k}, sms).size()) : 20.0;
    return flops * std::max(1.0, n) + 5e9;  // + fixed cost per shape (inputs, reference)
  };
  const auto start = std::chrono::steady_clock::now();
  double done_work = 0;

  for (size_t si = 0; si < opt.shapes.size(); ++si) {
    const tune::NamedShape& ns = opt.shapes[si];
    tune::ShapeOutcome outcome{ns, {}, 0, 0, 0, 0};
    std::set<std::string> excluded;
    std::map<std::string, std::string> failures;
    std::map<std::string, double> ok;
    tune::TuneKey key;
    std::map<std::string, double> refined;  // the refine round's medians (empty: none)
    double cublas_ms = 0, cublas_refined_ms = 0;
    int count = 0;
    std::set<std::string> touched;  // configurations checked so far (progress)
    const std::string label = ns.model + "/" + ns.layer + " " + std::to_string(ns.m) + "x" + std::to_string(ns.n) +
                              "x" + std::to_string(ns.k);
    for (int attempt = 0;; ++attempt) {
      int fds[2];
      if (pipe(fds) != 0) throw std::runtime_error(std::string("tune: pipe: ") + std::strerror(errno));
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid < 0) throw std::runtime_error(std::string("tune: fork: ") + std::strerror(errno));
      if (pid == 0) {
        close(fds[0]);
        FILE* out = fdopen(fds[1], "w");
        int code = 4;
        try {
          // --skip-tuned is decided in the child: the key needs CUDA, which the parent never touches.
          if (opt.skip_tuned && attempt == 0 && gpu_available() && cache.find(tune_key_here({ns.m, ns.n, ns.k}))) {
            std::fprintf(out, "skip\n");
            code = 0;
          } else {
            code = tune_child(ns, excluded, opt, cache, opt.seed + si, out);
          }
        } catch (const std::exception& e) {
          std::fprintf(out, "fatal\t%s\n", clean(e.what()).c_str());
          code = 4;
        }
        std::fflush(out);
        _exit(code);
      }
      close(fds[1]);
      LineReader in(fds[0]);
      std::string running, fatal, l;
      int runs_seen = 0;
      bool hung = false;
      for (;;) {
        const auto got = in.next(l, opt.hang_seconds > 0 ? opt.hang_seconds * 1000 : -1);
        if (got == LineReader::Status::eof) break;
        if (got == LineReader::Status::timeout) {
          // Silent for too long: a kernel that never finishes. Kill the worker; the
          // configuration it was running is recorded and the shape retried without it.
          hung = true;
          kill(pid, SIGKILL);
          break;
        }
        const auto f = fields(l);
        if (f[0] == "skip") {
          outcome.skipped = true;
        } else if (f[0] == "incumbent" && f.size() >= 2) {
          outcome.incumbent = f[1];
        } else if (f[0] == "env" && f.size() >= 5) {
          key.gpu = f[1], key.cuda = f[2], key.driver = f[3];
          sms = std::atoi(f[4].c_str());
        } else if (f[0] == "count" && f.size() >= 2) {
          count = std::atoi(f[1].c_str()) + static_cast<int>(failures.size());
        } else if (f[0] == "run" && f.size() >= 2) {
          running = f[1];
          touched.insert(f[1]);
          ++runs_seen;
        } else if (f[0] == "fail" && f.size() >= 3) {
          touched.insert(f[1]);
          failures[f[1]] = f[2];
          excluded.insert(f[1]);
          running.clear();
        } else if (f[0] == "ok" && f.size() >= 3) {
          ok[f[1]] = std::atof(f[2].c_str());
        } else if (f[0] == "cublas" && f.size() >= 2) {
          cublas_ms = std::atof(f[1].c_str());
        } else if (f[0] == "refined" && f.size() >= 3) {
          refined[f[1]] = std::atof(f[2].c_str());
        } else if (f[0] == "cublas-refined" && f.size() >= 2) {
          cublas_refined_ms = std::atof(f[1].c_str());
        } else if (f[0] == "nogpu") {
          fatal = "no usable CUDA device (" + (f.size() > 1 ? f[1] : std::string("?")) + "); tune needs the GPU";
        } else if (f[0] == "fatal") {
          fatal = f.size() > 1 ? f[1] : "unknown error";
        }
        if (opt.progress && (f[0] == "run" || f[0] == "fail")) {
          const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          double total_work = 0;
          for (const auto& x : opt.shapes) total_work += shape_work(x);
          const int done_here = static_cast<int>(touched.size());
          const double expected_runs = static_cast<double>(count) * (1 + opt.warmup + opt.repeats);
          const double frac_shape = count > 0 ? std::min(1.0, runs_seen / expected_runs) : 0.0;
          const double done = done_work + frac_shape * shape_work(ns);
          const double eta = done > 0 && elapsed > 2 ? elapsed * (total_work - done) / done : -1;
          const int width = 20, filled = static_cast<int>(width * done / total_work);
          std::fprintf(stderr, "\r[tune] %zu/%zu [%s%s] %-40s %3d configs checked, %s left   ", si + 1,
                       opt.shapes.size(), std::string(std::max(0, filled), '#').c_str(),
                       std::string(std::max(0, width - filled), '.').c_str(), label.c_str(), done_here,
                       fmt_duration(eta).c_str());
        }
      }
      close(fds[0]);
      int status = 0;
      waitpid(pid, &status, 0);
      if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
      if (WIFEXITED(status) && WEXITSTATUS(status) == 3) throw NoGpuError(fatal);
      if (!fatal.empty() && running.empty()) throw std::runtime_error("tune " + label + ": " + fatal);
      const std::string silent = "no progress for " + std::to_string(opt.hang_seconds) + " s";
      if (running.empty() || attempt > 64)
        throw std::runtime_error("tune " + label + ": the worker process failed (" +
                                 (hung                  ? silent + "; killed"
                                  : WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                                        : "exit " + std::to_string(WEXITSTATUS(status))) +
                                 ")" + (fatal.empty() ? "" : ": " + fatal));
      // The configuration in flight hung, or took the process (or its CUDA context) down.
      if (!failures.count(running))
        failures[running] = hung ? silent + " while it ran (hung; the worker was killed)"
                                 : "the CUDA context was lost while it ran" + (fatal.empty() ? "" : ": " + fatal);
      excluded.insert(running);
      ok.clear();
      refined.clear();
    }
    done_work += shape_work(ns);
    if (outcome.skipped) {
      if (opt.progress) std::fprintf(stderr, "\r[tune] %zu/%zu %s: in the cache already, skipped\n", si + 1,
                                     opt.shapes.size(), label.c_str());
      if (opt.on_shape) opt.on_shape(outcome);
      continue;
    }

    key.kernel_version = tune::kKernelVersion;
    key.m = ns.m, key.n = ns.n, key.k = ns.k;
    for (const auto& [config, reason] : failures) {
      cache.add_failure(tune::TuneFailure{key, config, reason});
      // A candidate that failed in the refine round had already reported its first round.
      ok.erase(config);
      refined.erase(config);
    }
    outcome.failed = static_cast<int>(failures.size());
    outcome.timed = static_cast<int>(ok.size());
    outcome.cublas_ms = cublas_ms;
    outcome.first_times = ok;
    outcome.refined_times = refined;
    outcome.cublas_first_ms = cublas_ms;
    outcome.cublas_refined_ms = refined.empty() ? 0.0 : cublas_refined_ms;
    outcome.where = {key.gpu, key.driver, key.cuda, today(), key.kernel_version};
    if (!ok.empty()) {
      auto fastest = [](const std::map<std::string, double>& times) {
        return *std::min_element(times.begin(), times.end(), [](auto& a, auto& b) { return a.second < b.second; });
      };
      const auto first = fastest(ok);
      // The refine round's pick, with its own cuBLAS timing, where there was one.
      const auto best = refined.empty() ? first : fastest(refined);
      if (!refined.empty()) {
        outcome.cublas_ms = cublas_ms = cublas_refined_ms;
        outcome.refined = static_cast<int>(refined.size());
        if (best.first != first.first) outcome.first_round = first.first;
      }
      outcome.best = best.first;
      outcome.best_ms = best.second;
      // With --configs the cache's entry was timed in the same run (if it still runs
      // and is a candidate), so the fastest of this sweep replaces it either way.
      cache.upsert(tune::TuneEntry{key, best.first, best.second, cublas_ms, outcome.timed, today()});
    }
    tune::save_tune_cache(opt.cache_path, cache);
    if (opt.progress) std::fprintf(stderr, "\n");
    if (opt.on_shape) opt.on_shape(outcome);
  }
}

}  // namespace gemmscope::harness
