/* The C ABI of gemmscope for Python (python/gemmscope loads it with ctypes).
 *
 * Plain C types only: integers, C strings, pointers to arrays the caller owns, and one
 * opaque handle (gs_trace). Every function that can fail returns a status:
 *   GS_OK           done
 *   GS_INVALID      a refused input; gs_last_error() holds the library's message, the
 *                   text the gemmscope command line prints (Python raises ValueError)
 *   GS_FAILED       anything else: an I/O or CUDA failure (Python raises RuntimeError)
 *   GS_UNAVAILABLE  built without the CUDA kernels (gs_gemm only)
 *   GS_SHORT        an output array was too small: *count says how many entries it
 *                   needs; call again with room for them
 * Strings a function gives back (const char** out) live in a per-thread buffer, valid
 * until the next call on the same thread: copy them.
 */
#ifndef GEMMSCOPE_CAPI_H
#define GEMMSCOPE_CAPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GS_OK 0
#define GS_INVALID 1
#define GS_FAILED 2
#define GS_UNAVAILABLE 3
#define GS_SHORT 4

/* Raised when the ABI changes; the Python package refuses a library of another one. */
#define GS_ABI_VERSION 3

int gs_abi_version(void);
const char* gs_version(void);
/* The message of the last failed call on this thread. */
const char* gs_last_error(void);

/* ---- model ------------------------------------------------------------------ */

/* out[i] = the byte address the hardware uses for logical byte offsets[i]. */
int gs_swizzle(const char* mode, const int64_t* offsets, uint64_t* out, size_t count);

/* Shared-memory matrix descriptors, arch "sm90" or "sm100"; lbo_mode "relative" or
 * "absolute" (sm100 only). */
int gs_desc_encode(const char* arch, int64_t start, int64_t lbo, int64_t sbo, const char* swizzle, int64_t base_offset,
                   const char* lbo_mode, uint64_t* word);
/* *json: the object `gemmscope desc decode --json` prints. */
int gs_desc_decode(const char* arch, uint64_t word, const char** json);
/* (row, k, address) of every element, row-major over (row, k): out holds 3 * *count
 * values; capacity is in elements (triples). */
int gs_desc_map(const char* arch, uint64_t word, int64_t rows, int64_t k, const char* major, int64_t elem_bytes,
                uint64_t* out, size_t capacity, size_t* count);

/* The tcgen05.mma instruction descriptor (kind::f16). */
int gs_idesc_encode(int64_t m, int64_t n, const char* a, const char* b, const char* d, const char* a_major,
                    const char* b_major, int negate_a, int negate_b, int64_t cta_group, uint32_t* word);
/* *json: the object `gemmscope idesc decode --json` prints. */
int gs_idesc_decode(uint32_t word, const char** json);

/* The tcgen05.ld/st thread map: (thread, register, lane, column) per cell, 4 * *count
 * values; capacity in cells. *registers: per thread; *confirmed: 1 when the PTX ISA
 * figures state the map. */
int gs_tmem_map(const char* shape, int64_t num, int64_t half_split_offset, uint32_t* out, size_t capacity,
                size_t* count, uint32_t* registers, int* confirmed);

/* One warp instruction's bank cost: lane t (t < count <= 32) at addresses[t], after
 * the swizzle; *json: {"wavefronts", "ideal", "conflicts", "phases": [{"lanes",
 * "distinct_words", "wavefronts", "ideal", "conflicts", "collisions": [{"bank",
 * "lanes", "words": [{"address", "lanes"}]}]}]}, lanes as lists of lane numbers. */
int gs_banks(const int64_t* addresses, size_t count, int64_t width_bytes, int store, const char* swizzle,
             const char** json);

/* DOT text of a tile's 16-byte chunks under a swizzle (gemmscope viz --swizzle). */
int gs_swizzle_dot(const char* mode, int64_t rows, int64_t row_bytes, int64_t base, const char** dot);

/* ---- traces ----------------------------------------------------------------- */

typedef struct gs_trace gs_trace;

void gs_trace_free(gs_trace* trace);
/* Either form (JSON lines or text); source_name prefixes error messages. */
int gs_trace_parse(const char* text, size_t length, const char* source_name, gs_trace** out);
int gs_trace_read(const char* path, gs_trace** out);
/* A built-in bank pattern as a trace (gemmscope trace pattern). */
int gs_trace_pattern(const char* name, const char* swizzle, int64_t base, gs_trace** out);
/* The model's trace of a ladder kernel (gemmscope trace model). */
int gs_trace_model(const char* kernel, int64_t k_blocks, int64_t base, int64_t cta, int main_loop, int epilogue,
                   gs_trace** out);
/* A trace from arrays of `count` records, written in the trace format and read back
 * by its reader, so that every rule and message is the reader's, naming "record N"
 * (0-based). stages and kinds: names (gs_trace_names()); addresses: count x 32, a
 * negative address marks an inactive lane when masks is NULL (else the mask decides
 * and the addresses of inactive lanes are ignored); labels and kernels may be NULL. */
int gs_trace_build(const char* kernel, const char* source, const char* description, int64_t smem_base, size_t count,
                   const char* const* stages, const int64_t* ctas, const int64_t* warps, const int64_t* widths,
                   const char* const* kinds, const int64_t* masks, const int64_t* addresses, const char* const* labels,
                   const char* const* kernels, gs_trace** out);
/* {"stages": [...], "kinds": ["load", "store"]}: the names in the order of the indices
 * gs_trace_export gives. */
const char* gs_trace_names(void);

size_t gs_trace_count(const gs_trace* trace);
/* {"kernel", "source", "description", "smem_base"} */
int gs_trace_header(const gs_trace* trace, const char** json);
/* Arrays of count entries (stages and kinds as indices into gs_trace_names(); addresses:
 * count x 32, -1 for inactive lanes). */
int gs_trace_export(const gs_trace* trace, int64_t* stages, int64_t* ctas, int64_t* warps, int64_t* widths,
                    int64_t* kinds, int64_t* masks, int64_t* addresses);
/* JSON array of each record's label, or of each record's own kernel ("" = the trace's). */
int gs_trace_labels(const gs_trace* trace, const char** json);
int gs_trace_kernels(const gs_trace* trace, const char** json);

/* format "jsonl" or "text". */
int gs_trace_write(const gs_trace* trace, const char* format, const char** text);
int gs_trace_write_file(const gs_trace* trace, const char* path, const char* format);
/* *difference: "" when the records agree (gemmscope trace compare). */
int gs_trace_compare(const gs_trace* a, const gs_trace* b, const char** difference);
/* The model's expected trace for the kernel, CTAs and stages of a recorded one. */
int gs_trace_model_for(const gs_trace* trace, gs_trace** out);

/* The bank analysis: the JSON of `gemmscope banks --trace --json` (per_instruction 0:
 * as with --summary), or its text (per_instruction 1: as with --all). */
int gs_trace_analyse(const gs_trace* trace, int per_instruction, const char** json);
int gs_trace_analysis_text(const gs_trace* trace, int per_instruction, const char** text);
/* DOT text: the bank-by-stage heat map, or one record's lanes -> banks. */
int gs_trace_heatmap_dot(const gs_trace* trace, const char* title, const char** dot);
int gs_trace_instruction_dot(const gs_trace* trace, int64_t record, const char* title, const char** dot);

/* ---- shape sets ---------------------------------------------------------------- */

/* A shape-set CSV (the files of bench/shapes/: model,layer,m,n,k) through the one reader the
 * autotuner and bench use; *json: [{"model", "layer", "m", "n", "k"}, ...]. */
int gs_shape_set(const char* path, const char** json);

/* ---- checking a GEMM of your own ------------------------------------------------ */

/* The differential check's random inputs: A (M x K) and B (N x K) as bf16 bits, drawn from
 * `seed` (normal(0, 1), the same values as gemmscope's own tests for that seed and shape),
 * into arrays the caller owns. M, N, K >= 1; the shape within gs_check_compare's bounds too,
 * so that one it would refuse is refused before its inputs are drawn. */
int gs_check_inputs(int64_t m, int64_t n, int64_t k, uint64_t seed, uint16_t* a, uint16_t* b);
/* C (M x N bf16 bits) against C = A * B^T in double precision (Eigen) and the bound for
 * bf16 inputs, fp32 accumulation and bf16 output (any NaN or Inf fails); *json: {"ok",
 * "normwise_rel_error", "worst_elementwise_ratio", "bad_elements", "nan_elements",
 * "first_bad_row", "first_bad_col", "summary"}. M x K and N x K at most 2^28 elements,
 * M x N at most 2^26 and M x N x K at most 2^34 multiply-adds (the reference's memory and
 * time). */
int gs_check_compare(int64_t m, int64_t n, int64_t k, const uint16_t* a, const uint16_t* b, const uint16_t* c,
                     const char** json);

/* ---- the GEMM ------------------------------------------------------------------ */

/* 1 when built with the CUDA kernels. */
int gs_have_kernels(void);
/* C[M,N] = A[M,K] * B[N,K]^T through gemmscope::gemm, bf16, row-major, on `stream`
 * (a cudaStream_t; 0 the legacy default stream) of CUDA device `device` (made current
 * for the launch, then restored). kernel: a name of the kernel registry ("auto"). */
int gs_gemm(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, uintptr_t stream, int device,
            const char* kernel);
/* gs_gemm with its integers in one block, read with memcpy (any alignment): one argument
 * to convert instead of eight, which is most of a call's cost from Python's ctypes. */
typedef struct gs_gemm_args {
  int64_t m, n, k;
  uint64_t a, b, c; /* device addresses of A, B, C */
  uint64_t stream;  /* cudaStream_t */
  int64_t device;
} gs_gemm_args;
int gs_gemm_launch(const void* args, const char* kernel);
/* What `kernel` runs for this problem ("k10:<configuration> (tuning cache)", ...). */
int gs_gemm_dispatch(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, const char* kernel,
                     const char** name);
/* Host time of `calls` launches of gs_gemm's work from C++ (no Python), in seconds per
 * call, after one warm-up call; the launches are queued on `stream`, not waited for. */
int gs_gemm_host_seconds(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, uintptr_t stream,
                         int device, const char* kernel, int64_t calls, double* seconds);

/* ---- the benchmark harness's timing (gemmscope bench's method, for Python) ---------- */

/* How gemmscope bench times this shape on `device`: *sets input/output sets to rotate
 * through (together more than 3x L2), *launches per timed batch, *spin_us of GPU spin
 * queued before each batch. */
int gs_bench_plan(int64_t m, int64_t n, int64_t k, int device, int64_t* sets, int64_t* launches, double* spin_us);
/* Queues the harness's spin kernel (about `microseconds` of GPU time) on `stream`. */
int gs_bench_spin(uintptr_t stream, int device, double microseconds);
/* One timed batch as gemmscope bench takes it: the spin, then `launches` (1..*launches of
 * gs_bench_plan) launches of the registry's `kernel` on problems[0..launches-1] queued
 * back to back on their stream, each between its own pair of CUDA events; waits, and
 * writes each launch's milliseconds to ms. All problems share one shape, stream and
 * device. */
int gs_bench_batch(const gs_gemm_args* problems, int64_t launches, const char* kernel, float* ms);

#ifdef __cplusplus
}
#endif

#endif /* GEMMSCOPE_CAPI_H */
