#include "probes/probe_runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#ifndef GEMMSCOPE_BUILD_COMMIT
#define GEMMSCOPE_BUILD_COMMIT "unknown"
#endif

namespace gemmscope::probes {

namespace {

// A child that ran some cases and stopped after a failed one, so that the next
// case gets a fresh CUDA context.
constexpr int kChildRestart = 10;
constexpr int kChildNoDevice = 3;

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// One line, one write(2): a line survives the child's crash right after it.
void write_line(int fd, const Json& line) {
  std::string text = line.dump() + "\n";
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) _exit(97);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// Runs cases [first, end) of `cases`, recording to `fd`. Returns the child exit status.
int run_cases_child(const std::vector<ProbeCase>& cases, std::size_t first, int fd, int case_timeout_s,
                    const GpuQuery& query) {
  try {
    const traces::GpuInfo gpu = query();
    write_line(fd, {{"gpu_info",
                     {{"name", gpu.name},
                      {"compute_major", gpu.compute_major},
                      {"compute_minor", gpu.compute_minor},
                      {"driver_version", gpu.driver_version},
                      {"runtime_version", gpu.runtime_version},
                      {"sm_count", gpu.sm_count},
                      {"clock_khz", gpu.clock_khz}}}});
  } catch (const NoDeviceError& e) {
    write_line(fd, {{"no_device", e.what()}});
    return kChildNoDevice;
  } catch (const std::exception& e) {
    write_line(fd, {{"no_device", e.what()}});
    return kChildNoDevice;
  }
  for (std::size_t i = first; i < cases.size(); ++i) {
    write_line(fd, {{"begin", i}});
    alarm(static_cast<unsigned>(case_timeout_s));  // SIGALRM ends a hung case; the parent records it
    bool ok = false;
    try {
      Json observed = cases[i].run();
      write_line(fd, {{"index", i}, {"status", "ok"}, {"observed", std::move(observed)}});
      ok = true;
    } catch (const std::exception& e) {
      write_line(fd, {{"index", i}, {"status", "failed"}, {"error", e.what()}});
    }
    alarm(0);
    if (!ok) return kChildRestart;
  }
  return 0;
}

struct ChildLog {
  std::map<std::size_t, Json> results;  // index -> result line
  long long last_begin = -1;
  std::string no_device;
  bool has_gpu = false;
  traces::GpuInfo gpu;
};

ChildLog read_child_log(const std::string& path) {
  ChildLog log;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (...) {
      continue;  // a torn last line of a killed child
    }
    if (j.contains("begin")) log.last_begin = j["begin"].get<long long>();
    if (j.contains("index")) log.results[j["index"].get<std::size_t>()] = j;
    if (j.contains("no_device")) log.no_device = j["no_device"].get<std::string>();
    if (j.contains("gpu_info")) {
      const Json& g = j["gpu_info"];
      log.has_gpu = true;
      log.gpu.name = g["name"];
      log.gpu.compute_major = g["compute_major"];
      log.gpu.compute_minor = g["compute_minor"];
      log.gpu.driver_version = g["driver_version"];
      log.gpu.runtime_version = g["runtime_version"];
      log.gpu.sm_count = g["sm_count"];
      log.gpu.clock_khz = g["clock_khz"];
    }
  }
  return log;
}

std::string describe_wait_status(int status, int case_timeout_s) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGALRM)
      return "the case ran past its " + std::to_string(case_timeout_s) + " s timeout and its process was ended";
    return std::string("the probe process died of signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "the probe process exited with status " + std::to_string(WEXITSTATUS(status));
  return "the probe process ended in an unknown way";
}

struct ProbeOutcome {
  traces::GoldenTrace trace;
  bool no_device = false;
  std::string no_device_message;
};

traces::GoldenCase make_case(const ProbeCase& pc) {
  traces::GoldenCase c;
  c.name = pc.name;
  c.params = pc.params;
  return c;
}

void fill_from_result(traces::GoldenCase& c, const Json& result) {
  if (result.at("status") == "ok") {
    c.status = traces::CaseStatus::Ok;
    c.observed = result.at("observed");
    if (!c.observed.is_object() || c.observed.empty()) {
      c.status = traces::CaseStatus::Failed;
      c.error = "the probe returned no observation";
      c.observed = Json::object();
    }
  } else {
    c.status = traces::CaseStatus::Failed;
    c.error = result.at("error").get<std::string>();
  }
}

// Isolated: children run the cases; the parent never touches CUDA.
ProbeOutcome run_probe_isolated(const ProbeDefinition& def, const std::vector<ProbeCase>& cases,
                                const RunOptions& options, std::ostream& log, const GpuQuery& query) {
  ProbeOutcome out;
  out.trace.cases.reserve(cases.size());
  for (const ProbeCase& pc : cases) out.trace.cases.push_back(make_case(pc));
  std::vector<bool> done(cases.size(), false);
  std::size_t next = 0;
  int children = 0;
  while (next < cases.size()) {
    char path_template[] = "/tmp/gemmscope-probe-XXXXXX";
    const int fd = mkstemp(path_template);
    if (fd < 0) throw std::runtime_error(std::string("mkstemp: ") + std::strerror(errno));
    const std::string path = path_template;
    std::fflush(stdout);
    std::fflush(stderr);
    log.flush();
    const pid_t pid = fork();
    if (pid < 0) {
      ::close(fd);
      std::remove(path.c_str());
      throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
      const int rc = run_cases_child(cases, next, fd, options.case_timeout_s, query);
      ::close(fd);
      std::fflush(stdout);
      std::fflush(stderr);
      _exit(rc);  // no atexit handlers of the parent's copy
    }
    ::close(fd);
    ++children;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    }
    const ChildLog child = read_child_log(path);
    std::remove(path.c_str());
    if (!child.no_device.empty()) {
      out.no_device = true;
      out.no_device_message = child.no_device;
      return out;
    }
    if (child.has_gpu) out.trace.gpu = child.gpu;
    for (const auto& [index, result] : child.results) {
      if (index >= cases.size()) continue;
      fill_from_result(out.trace.cases[index], result);
      done[index] = true;
    }
    const bool clean_exit = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == kChildRestart);
    if (!clean_exit && child.last_begin >= 0 && !done[static_cast<std::size_t>(child.last_begin)]) {
      // The case in progress took the process down.
      auto& c = out.trace.cases[static_cast<std::size_t>(child.last_begin)];
      c.status = traces::CaseStatus::Failed;
      c.error = describe_wait_status(status, options.case_timeout_s);
      done[static_cast<std::size_t>(child.last_begin)] = true;
    }
    // Continue after the first case not done.
    std::size_t resume = next;
    while (resume < cases.size() && done[resume]) ++resume;
    if (resume == next) {
      // The child died before finishing any case (e.g. at start-up): record and move on.
      auto& c = out.trace.cases[next];
      c.status = traces::CaseStatus::Failed;
      c.error = "no result: " + describe_wait_status(status, options.case_timeout_s);
      done[next] = true;
      ++resume;
    }
    next = resume;
  }
  log << "  " << def.name << ": " << cases.size() << " cases in " << children << " process(es)\n";
  return out;
}

ProbeOutcome run_probe_in_process(const ProbeDefinition& def, const std::vector<ProbeCase>& cases,
                                  std::ostream& log, const GpuQuery& query) {
  ProbeOutcome out;
  try {
    out.trace.gpu = query();
  } catch (const std::exception& e) {
    out.no_device = true;
    out.no_device_message = e.what();
    return out;
  }
  std::string poisoned;  // after a failed case the context may be unusable: skip the rest
  for (const ProbeCase& pc : cases) {
    traces::GoldenCase c = make_case(pc);
    if (!poisoned.empty()) {
      c.status = traces::CaseStatus::Failed;
      c.error = "not run in-process after case " + poisoned + " failed (run without --no-isolate)";
    } else {
      try {
        c.observed = pc.run();
        c.status = traces::CaseStatus::Ok;
      } catch (const std::exception& e) {
        c.status = traces::CaseStatus::Failed;
        c.error = e.what();
        poisoned = pc.name;
      }
    }
    out.trace.cases.push_back(std::move(c));
  }
  log << "  " << def.name << ": " << cases.size() << " cases in-process\n";
  return out;
}

}  // namespace

std::string probe_commit() {
  if (const char* env = std::getenv("GEMMSCOPE_COMMIT"); env && *env) return env;
  return GEMMSCOPE_BUILD_COMMIT;
}

int run_probe_definitions(const std::vector<ProbeDefinition>& defs, const RunOptions& options, std::ostream& log,
                          std::ostream& err, const GpuQuery& query) {
  std::set<std::string> known;
  for (const ProbeDefinition& d : defs) known.insert(d.name);
  for (const std::string& name : options.only)
    if (!known.count(name)) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("--only = " + name + " is not a probe (" + list + ")");
    }
  if (options.case_timeout_s < 1 || options.case_timeout_s > 600)
    throw std::invalid_argument("--case-timeout = " + std::to_string(options.case_timeout_s) + " must be in 1..600 s");

  std::size_t total = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const ProbeDefinition& def : defs) {
    if (!options.only.empty() &&
        std::find(options.only.begin(), options.only.end(), def.name) == options.only.end())
      continue;
    const std::vector<ProbeCase> cases = def.make_cases(options.probe);
    ProbeOutcome outcome = options.isolate ? run_probe_isolated(def, cases, options, log, query)
                                           : run_probe_in_process(def, cases, log, query);
    if (outcome.no_device) {
      err << "gemmscope: no CUDA device: " << outcome.no_device_message << "\n";
      return kProbeExitNoDevice;
    }
    traces::GoldenTrace& trace = outcome.trace;
    trace.probe = def.name;
    trace.description = def.description;
    trace.settles = def.settles;
    trace.date = utc_now();
    trace.commit = options.commit.empty() ? "unknown" : options.commit;
    const auto path = traces::write_golden(options.out_dir, trace);
    total += trace.cases.size();
    failed += trace.failed_cases();
    log << "  wrote " << path.string() << ": " << trace.cases.size() - trace.failed_cases() << " ok, "
        << trace.failed_cases() << " failed\n";
    for (const traces::GoldenCase& c : trace.cases)
      if (c.status == traces::CaseStatus::Failed) log << "    failed " << c.name << ": " << c.error << "\n";
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  log << "probe run: " << total << " cases, " << failed << " failed, " << seconds << " s\n";
  return failed == 0 ? kProbeExitOk : kProbeExitSomeCasesFailed;
}

}  // namespace gemmscope::probes
