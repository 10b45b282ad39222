// Probe: mbarrier phases and transaction counts, observed step by step. One thread
// runs a small script of mbarrier operations and records each test's result:
// parity waits across phase flips, tests of old phases and old state tokens, and the
// transaction count going negative when bytes complete (mbarrier.complete_tx or a
// bulk copy) before they are expected. PTX ISA: "Parallel Synchronization and
// Communication Instructions: mbarrier" (phase, pending arrivals, tx-count).
#include <cuda/ptx>

#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

// Script operations (params.script lists them by name; the kernel gets codes).
enum MbarrierOp : int32_t {
  kInit = 0,             // arg: expected arrival count
  kArrive = 1,           // arg: arrival count (mbarrier.arrive ... count); keeps the state token
  kArriveExpectTx = 2,   // arg: bytes; keeps the state token
  kExpectTx = 3,         // arg: bytes
  kCompleteTx = 4,       // arg: bytes (mbarrier.complete_tx)
  kBulkCopy = 5,         // arg: bytes, a cp.async.bulk global->shared that completes tx on the barrier, then 50 us
  kTestWaitParity = 6,   // arg: parity -> result 0/1
  kTryWaitParity = 7,    // arg: parity -> result 0/1 (one try_wait: it may block up to a hardware time limit)
  kTestWaitToken = 8,    // arg: index of the kept token -> result 0/1
  kDelay = 9,            // arg: nanoseconds
  kPendingCount = 10,    // arg: index of the kept token -> mbarrier.pending_count of that token
  kCopyLanded = 11,      // result: 1 when the last bulk copy's bytes are in shared memory (read after a delay)
};

struct Step {
  const char* op;
  MbarrierOp code;
  int32_t arg;
};

constexpr int kMaxTokens = 16;
constexpr int kCopyBytes = 4096;

__device__ __forceinline__ void complete_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(probe_smem_u32(bar)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ uint32_t pending_count(uint64_t token) {
  uint32_t count;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(count) : "l"(token));
  return count;
}

__device__ void delay_ns(uint64_t ns) {
  const uint64_t start = probe_globaltimer_ns();
  while (probe_globaltimer_ns() - start < ns) {
  }
}

__global__ void mbarrier_script_kernel(const int32_t* script, int steps, const uint8_t* copy_src, int64_t* results) {
  __shared__ uint64_t bar;
  __shared__ __align__(128) uint8_t copy_dst[kCopyBytes];
  if (threadIdx.x != 0) return;
  uint64_t tokens[kMaxTokens] = {};
  int token_count = 0;
  int last_copy_bytes = 0;
  for (int i = 0; i < kCopyBytes; ++i) copy_dst[i] = 0;
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  for (int s = 0; s < steps; ++s) {
    const int32_t op = script[2 * s];
    const int32_t arg = script[2 * s + 1];
    int64_t result = -1;
    switch (op) {
      case kInit:
        cuda::ptx::mbarrier_init(&bar, static_cast<uint32_t>(arg));
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the async proxy (bulk copy) sees the init
        break;
      case kArrive: {
        const uint64_t t = arg == 1 ? cuda::ptx::mbarrier_arrive(&bar)
                                    : cuda::ptx::mbarrier_arrive(&bar, static_cast<uint32_t>(arg));
        if (token_count < kMaxTokens) tokens[token_count++] = t;
        break;
      }
      case kArriveExpectTx: {
        const uint64_t t = cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                                cuda::ptx::space_shared, &bar,
                                                                static_cast<uint32_t>(arg));
        if (token_count < kMaxTokens) tokens[token_count++] = t;
        break;
      }
      case kExpectTx:
        cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar,
                                      static_cast<uint32_t>(arg));
        break;
      case kCompleteTx: complete_tx(&bar, static_cast<uint32_t>(arg)); break;
      case kBulkCopy:
        last_copy_bytes = arg;
        cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, copy_dst, copy_src,
                                 static_cast<uint32_t>(arg), &bar);
        delay_ns(50'000);  // long enough for a 4 KiB copy to land
        break;
      case kTestWaitParity:
        result = cuda::ptx::mbarrier_test_wait_parity(&bar, static_cast<uint32_t>(arg)) ? 1 : 0;
        break;
      case kTryWaitParity:
        result = cuda::ptx::mbarrier_try_wait_parity(&bar, static_cast<uint32_t>(arg)) ? 1 : 0;
        break;
      case kTestWaitToken:
        result = (arg >= 0 && arg < token_count) ? (cuda::ptx::mbarrier_test_wait(&bar, tokens[arg]) ? 1 : 0) : -2;
        break;
      case kDelay: delay_ns(static_cast<uint64_t>(arg)); break;
      case kPendingCount: result = (arg >= 0 && arg < token_count) ? static_cast<int64_t>(pending_count(tokens[arg])) : int64_t{-2};
        break;
      case kCopyLanded: {
        // Formally the bytes are visible only after the phase completes; this reads
        // them after a delay, as an observation of when the copy landed.
        int landed = 1;
        for (int i = 0; i < last_copy_bytes; ++i)
          if (copy_dst[i] != copy_src[i]) landed = 0;
        result = landed;
        break;
      }
      default: result = -3; break;
    }
    results[s] = result;
  }
  delay_ns(100'000);  // let any bulk copy still in flight finish before the CTA exits
}

Json run_script(const std::vector<Step>& steps) {
  std::vector<int32_t> script;
  for (const Step& s : steps) {
    script.push_back(s.code);
    script.push_back(s.arg);
  }
  DeviceBuffer<int32_t> d_script(script.size());
  d_script.upload(script);
  std::vector<uint8_t> src(kCopyBytes);
  for (int i = 0; i < kCopyBytes; ++i) src[i] = static_cast<uint8_t>(1 + (i * 7) % 251);
  DeviceBuffer<uint8_t> d_src(src.size());
  d_src.upload(src);
  DeviceBuffer<int64_t> d_results(steps.size());
  mbarrier_script_kernel<<<1, 32>>>(d_script.get(), static_cast<int>(steps.size()), d_src.get(), d_results.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<int64_t> r = d_results.download();
  return Json{{"results", r}};
}

#define STEP(name, arg) Step{#name, name, arg}

ProbeCase script_case(std::string name, std::string purpose, std::vector<Step> steps) {
  Json script = Json::array();
  for (const Step& s : steps) script.push_back({std::string(s.op).substr(1), s.arg});  // "kArrive" -> "Arrive"
  Json params{{"purpose", purpose}, {"script", script}};
  return ProbeCase{std::move(name), std::move(params), [steps] { return run_script(steps); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ProbeCase> cases;
  cases.push_back(script_case(
      "parity_flips", "two arrivals per phase; parity tests before, between and after, over three phases",
      {STEP(kInit, 2), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1), STEP(kArrive, 1), STEP(kTestWaitParity, 0),
       STEP(kArrive, 1), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1), STEP(kArrive, 1),
       STEP(kTestWaitParity, 1), STEP(kArrive, 1), STEP(kTestWaitParity, 1), STEP(kTestWaitParity, 0),
       STEP(kArrive, 2), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1), STEP(kTryWaitParity, 0)}));
  cases.push_back(script_case(
      "tx_expect_then_complete", "arrive.expect_tx then two partial complete_tx",
      {STEP(kInit, 1), STEP(kArriveExpectTx, 256), STEP(kTestWaitParity, 0), STEP(kCompleteTx, 128),
       STEP(kTestWaitParity, 0), STEP(kCompleteTx, 128), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1)}));
  cases.push_back(script_case(
      "tx_complete_before_expect", "complete_tx first (tx-count negative), then arrive.expect_tx brings it to zero",
      {STEP(kInit, 1), STEP(kCompleteTx, 256), STEP(kTestWaitParity, 0), STEP(kArriveExpectTx, 256),
       STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1)}));
  cases.push_back(script_case(
      "tma_complete_before_expect", "a 1 KiB bulk copy completes on the barrier before any expect_tx",
      {STEP(kInit, 1), STEP(kBulkCopy, 1024), STEP(kCopyLanded, 0), STEP(kTestWaitParity, 0),
       STEP(kArriveExpectTx, 1024), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1)}));
  cases.push_back(script_case(
      "tma_expect_then_copy", "the usual order: arrive.expect_tx, then a 4 KiB bulk copy",
      {STEP(kInit, 1), STEP(kArriveExpectTx, 4096), STEP(kTestWaitParity, 0), STEP(kBulkCopy, 4096),
       STEP(kCopyLanded, 0), STEP(kTestWaitParity, 0)}));
  cases.push_back(script_case(
      "tma_partial_expect", "expect 2 KiB, a 1 KiB copy lands (phase still open), then complete_tx of the other 1 KiB",
      {STEP(kInit, 1), STEP(kArriveExpectTx, 2048), STEP(kBulkCopy, 1024), STEP(kTestWaitParity, 0),
       STEP(kCompleteTx, 1024), STEP(kTestWaitParity, 0)}));
  cases.push_back(script_case(
      "expect_tx_without_arrive", "expect_tx and arrivals separately; the phase waits for both",
      {STEP(kInit, 2), STEP(kExpectTx, 512), STEP(kArrive, 1), STEP(kTestWaitParity, 0), STEP(kCompleteTx, 512),
       STEP(kTestWaitParity, 0), STEP(kArrive, 1), STEP(kTestWaitParity, 0)}));
  cases.push_back(script_case(
      "tx_overcomplete_then_expect",
      "arrivals done but more bytes completed than expected (tx-count -128), then expect_tx(128) alone",
      {STEP(kInit, 1), STEP(kArriveExpectTx, 128), STEP(kCompleteTx, 256), STEP(kTestWaitParity, 0),
       STEP(kExpectTx, 128), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1)}));
  cases.push_back(script_case(
      "old_phase_tokens", "one arrival per phase; test_wait with tokens 0, 1 and 2 phases old; parity of old phases",
      {STEP(kInit, 1), STEP(kArrive, 1), STEP(kArrive, 1), STEP(kArrive, 1), STEP(kTestWaitToken, 2),
       STEP(kTestWaitToken, 1), STEP(kTestWaitToken, 0), STEP(kTestWaitParity, 0), STEP(kTestWaitParity, 1)}));
  cases.push_back(script_case(
      "token_of_open_phase", "three arrivals expected; tokens of an open phase and their pending counts",
      {STEP(kInit, 3), STEP(kArrive, 1), STEP(kTestWaitToken, 0), STEP(kPendingCount, 0), STEP(kArrive, 1),
       STEP(kPendingCount, 1), STEP(kArrive, 1), STEP(kTestWaitToken, 0), STEP(kTestWaitToken, 2),
       STEP(kPendingCount, 2)}));
  return cases;
}

#undef STEP

}  // namespace

ProbeDefinition mbarrier_probe() {
  return {"mbarrier",
          "mbarrier scripts run by one thread: parity tests over phase flips, transaction counts completed before "
          "they are expected (mbarrier.complete_tx and a bulk copy), tests of old phases and old state tokens",
          {"a phase completes when pending arrivals and tx-count are both zero; parity flips then",
           "tx-count may go negative: bytes completed before expect_tx are counted",
           "test_wait.parity(P) is true for the immediately preceding phase (parity 1 at start)",
           "what test_wait reports for a token two phases old (undefined in PTX: observation only)"},
          make_cases};
}

}  // namespace gemmscope::probes
