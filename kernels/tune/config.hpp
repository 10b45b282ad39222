#pragma once
// The configuration space of the tunable Hopper kernel (kernels/sm90/k10_tunable*.cu),
// host-only: names, parsing, the rules a configuration must meet for a shape, the
// candidates `gemmscope tune` times, and the heuristic `gemmscope::gemm` uses for
// shapes the tuning cache has not seen.
//
// A configuration prints as
//   128x256x64.s4.wg2.c2x1.static.g0.sk1
//   BMxBNxBK . stages . consumer warpgroups . cluster . schedule . block-swizzle group . split-K
// or, with the operands swapped (C^T = B A^T: the tile's BM rows run along N, its BN
// columns along M), with a field `swap` after the tile:
//   128x160x64.swap.s5.wg2.c1x1.static.g0.sk1
// where the warpgroup field is wgN (cooperative: N warpgroups split each tile's
// BM rows, 64 each, or 128 each at BM = 256) or wg2pp (ping-pong: BM = 128, two
// warpgroups take whole tiles in turn), and the last field is skN (split-K factor N,
// 1 = none) or streamk (stream-K over the last waves, static schedule only). The compile-time part (BM, BN, BK, stages,
// warpgroups, cluster, schedule) must be one of the compiled instances
// (tune/instances.hpp); the group, split-K and stream-K are run-time values.
#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::tune {

// The tunable kernel's version: tuning caches of another version are ignored, so it
// goes up whenever the kernel changes in a way that can change which configuration is
// fastest. Its history, version by version: CHANGELOG.md.
inline constexpr int kKernelVersion = 7;

enum class Schedule { Static, Dynamic };

struct KernelConfig {
  int bm = 128, bn = 256, bk = 64;
  int stages = 4;
  int consumers = 2;      // consumer warpgroups: 64 rows each, 128 at bm = 256 (sm90::k10_consumers)
  int cluster_m = 2, cluster_n = 1;
  Schedule schedule = Schedule::Static;
  int group = 0;          // block-swizzle band height in work tiles; 0 = plain order along M
  int splits = 1;         // split-K factor for the tiles of the last, partial wave (SplitPlan); 1 = none
  bool stream_k = false;  // stream-K over the last, partial wave and one full wave (SplitPlan); splits = 1
  bool pingpong = false;  // two consumer warpgroups on whole BM = 128 tiles in turn (wg2pp)
  bool swap_ab = false;   // the kernel computes C^T = B A^T: its M is N, its N is M (swap)
  bool operator==(const KernelConfig&) const = default;
  int cluster_size() const { return cluster_m * cluster_n; }
};

// Clusters of c that fit on sm_count SMs at one CTA per SM (at least 1): the slots
// a wave of work tiles fills. On the H200 (traces/hw/cluster_residency.json, held by
// the golden replay): 132 clusters of 1 and 66 of 2, but clusters of 4 and 8 reach
// only 120 of the 132 SMs (30 and 15; a cluster runs within one GPC). Other SM
// counts (--sms) are scaled from that: 10/11 of the SMs for clusters of 4 and more.
inline int64_t cluster_slots(const KernelConfig& c, int sm_count) {
  const int64_t sms = c.cluster_size() >= 4 ? int64_t{sm_count} * 10 / 11 : sm_count;
  return std::max<int64_t>(1, sms / c.cluster_size());
}

class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
// A well-formed configuration whose compile-time part this build does not compile
// (one of another build's instances).
class NotCompiledError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

std::string to_string(const KernelConfig& c);
// Parses the printed form; throws ConfigError naming the field, the value and the
// rule (including "not a compiled instance" with the list of compiled ones).
KernelConfig parse_config(std::string_view text);
// The same, where a compiled instance's fields alone (five, six with swap:
// BMxBNxBK[.swap].sSTAGES.wgN[pp].cMxN.static|dynamic) stand for group 0 and no split.
KernelConfig parse_config_or_instance(std::string_view text);

// The instance a configuration's printed name belongs to: the name without its
// run-time fields (".gGROUP.skSPLITS" or ".gGROUP.streamk"), compiled or not.
std::string instance_name(std::string_view config_name);

// A selection of configurations (`gemmscope tune --configs`): each item is a whole
// configuration, or a compiled instance's first five fields
// (BMxBNxBK.sSTAGES.wgN[pp].cMxN.static|dynamic) standing for every candidate of
// that instance. parse_selection_item returns the item in printed form (throws
// ConfigError as parse_config does); selected() says whether c is in the selection.
std::string parse_selection_item(std::string_view text);
bool selected(const KernelConfig& c, const std::vector<std::string>& selection);

// The configurations one tune sweep times for a shape, in candidates' order: those
// not in `excluded` (failed earlier in this sweep) and, when `selection` is not empty,
// only the selected ones plus `incumbent`, the configuration the cache holds for the
// shape (if it is one of the candidates). So a selection replaces a cached entry only
// by beating it in the same interleaved run: ratios to cuBLAS from two runs differ by
// more than the gaps they would decide (H200, 2026-11-30; docs/experiments.md).
std::vector<KernelConfig> sweep_list(const std::vector<KernelConfig>& candidates,
                                     const std::set<std::string>& excluded,
                                     const std::vector<std::string>& selection, const std::string& incumbent);

// The refine round of a tune sweep: the indices of the `count` lowest medians that are
// within `spread` (a fraction) of the lowest, fastest first; empty when fewer than two
// qualify or count < 2 (nothing to decide). NaN or infinite medians (dropped
// candidates) never qualify. Picking the least of a hundred noisy medians favours a
// lucky one; the few near the top are timed again, on rounds of their own.
std::vector<size_t> refine_picks(const std::vector<double>& medians, int count, double spread);

// The configuration (group 0, split 1) of one row of tune/instances.hpp: its fields in
// the row's order, the consumer count following from BM (sm90::k10_consumers).
KernelConfig instance_config(int bm, int bn, int bk, int stages, int cluster_m, int cluster_n, bool dynamic,
                             bool pingpong, bool swap_ab);
// The compiled instances (group 0, split 1), in tune/instances.hpp order.
const std::vector<KernelConfig>& compiled_instances();
// Index of c's compile-time part in compiled_instances(), or -1.
int instance_index(const KernelConfig& c);

// Shared memory the kernel asks for (bytes, including the 1 KiB alignment slack);
// the per-block limit on sm_90 is 227 KiB = 232448 bytes.
int64_t shared_memory_bytes(const KernelConfig& c);
inline constexpr int64_t kSm90MaxSharedPerBlock = 232448;

struct Shape {
  int64_t m = 0, n = 0, k = 0;
};
// Shape rules of this configuration (TMA: K and N multiples of 8; split-K at most
// one split per BK-deep k-block; work index below 2^31; stream-K only with the
// static schedule and without split-K). Empty when it can run.
std::string shape_rules(const KernelConfig& c, const Shape& s);

// The problem the kernel itself runs for shape s: s, or with M and N exchanged where
// c swaps the operands. Decomposition, split plan, B's load policy and the model all
// count in it.
Shape kernel_shape(const KernelConfig& c, const Shape& s);

// Work decomposition, shared with the launcher (of kernel_shape(c, s)).
struct Decomposition {
  int64_t tiles_m = 0, tiles_n = 0;  // CTA tiles
  int64_t units_m = 0, units_n = 0;  // cluster work tiles (ceil(tiles_m / cluster_m), ceil(tiles_n / cluster_n))
  int64_t k_blocks = 0;
  int64_t work = 0;                  // units_m * units_n * splits (an upper bound of SplitPlan::units)
};
Decomposition decompose(const KernelConfig& c, const Shape& s);

// Whether the launch loads B with an L2 evict_first policy (.L2::cache_hint), not as a
// plain TMA load. Only where one cluster row of tiles covers M (units_m == 1), so that
// every B element is loaded exactly once and need not stay in L2, and B is at most
// kEvictFirstBMaxL2s times the L2. On the H200 at M = 128 it was 0.4-3.4% faster at the 9
// LLM shapes with B of 34-235 MB and 1.5-6.5% slower at the 3 with B of 462-940 MB,
// unexplained (H200, 2026-12-01; docs/experiments.md). A and the other
// shapes load without a hint: an explicit policy there (evict_unchanged, evict_normal
// or evict_last) was slower than none.
inline constexpr int64_t kEvictFirstBMaxL2s = 5;
bool evict_first_b(const KernelConfig& c, const Shape& s, int64_t l2_bytes);

// Rows TMA loads short of a whole box, on the kernel's shape (kernel_shape), so that no
// rows past M are filled; 0 where the box is whole. A's tail: the last row of tiles runs
// past the kernel's M and A is not multicast along N: its CTAs load the rows up to M,
// rounded up to 8 (Problem::a_tail_rows). Swapped B: one tile covers the kernel's N (the
// user's M) and B is not multicast along M: the rows up to N, rounded up to 8
// (Problem::b_rows).
int64_t a_tail_rows(const KernelConfig& c, const Shape& kernel);
int64_t swapped_b_rows(const KernelConfig& c, const Shape& kernel);

// Split-K as the kernel schedules it, given how many clusters are resident
// (`workers`). With T work tiles and S = splits > 1:
//   T < workers:       every tile is split (data-parallel part empty);
//   otherwise:         the first floor(T / workers) * workers tiles run whole
//                      (full waves), only the R = T mod workers tiles of the last
//                      wave are split S ways (R = 0: nothing to split).
// Work units: the whole tiles first, then unit dp + j is split j / R of
// remainder tile j % R. A split tile's partials meet in a workspace; the last
// split to finish sums all S in split order (deterministic) and stores the tile.
//
// Stream-K (c.stream_k) with P = workers: T a multiple of P: nothing to balance,
// all tiles whole. T < P: every tile is stream-K. Otherwise the remainder R and
// one full wave, R + P tiles, are stream-K (each worker gets 1 to 2 tiles' worth
// of k-blocks, so no tile is cut into more than 3 pieces) and the T - R - P
// before them run whole. The stream-K tiles' k-blocks are dealt evenly to
// sk_workers = min(P, k-blocks) workers (sm90::StreamK).
struct SplitPlan {
  int64_t tiles = 0;        // T
  int64_t dp_tiles = 0;     // whole tiles
  int64_t split_tiles = 0;  // R (split-K)
  int64_t sk_tiles = 0;     // stream-K tiles, after the whole ones
  int64_t sk_workers = 0;   // workers sharing the stream-K k-blocks
  int64_t units = 0;        // clusters that have work: dp_tiles + split_tiles * splits, or
                            // at least sk_workers under stream-K
  // The workspace of cut tiles (what the launcher allocates): fp32 partial slots,
  // split_tiles * splits or two per stream-K worker (sm90::StreamK::slot), and the
  // tiles that count their pieces in (split_tiles or sk_tiles).
  int64_t partial_slots = 0;
  int64_t cut_tiles = 0;
};
SplitPlan split_plan(const KernelConfig& c, const Shape& s, int64_t workers);

// Configurations `gemmscope tune` times for a shape on a GPU with `sm_count` SMs:
// every compiled instance (a swapped one only where its tiles fit one wave), with
// block-swizzle groups {0, 8} where the work grid
// has more than 8 rows; where the last wave is ragged (work tiles not a multiple
// of the cluster slots) also split-K 2, 3, 4, 6, 8 (at least 4 k-blocks per split)
// and, for static instances, stream-K.
std::vector<KernelConfig> candidates(const Shape& s, int sm_count);

// The untuned choice: the candidate with the lowest modelled time (waves of work
// tiles x per-tile cost from tile efficiency, the HBM floor, the fp32 partials of
// cut tiles, stream-K's loads at the HBM rate; constants set from H200
// measurements). A model, not a measurement: the tuning cache overrides it.
KernelConfig heuristic(const Shape& s, int sm_count);
// The model's terms for one configuration (microseconds): what heuristic() ranks by
// is total_us; `gemmscope tune explain` prints the rest.
struct ModelledTime {
  double whole_us = 0;  // waves of whole tiles
  double cut_us = 0;    // split-K or stream-K: the cut tiles' pieces, partials and fixup
  double floor_us = 0;  // A, B, C and the partials through HBM once
  double total_us = 0;  // max(whole + cut, floor), the tie share, the plainer-form factors
  bool on_floor() const { return floor_us >= whole_us + cut_us; }
};
ModelledTime modelled_time(const KernelConfig& c, const Shape& s, int sm_count);
// Whether the model rates c's grouped tile order above the order along M: c's clusters
// span M (B multicast along M), its work tiles take more than one wave, and the A rows
// and B columns one wave touches (times K) come to more than kL2KeptBytes along M and
// to less grouped. Along M, a wave walks all of A's rows for a few columns of B, and
// the next wave reads A again. The same configurations with group 8 against group 0 on
// the calibration shapes with more than one wave, the six fastest pairs of each (H100
// and H200, 2026-12-04 to -06; bench/results/calibration): 1.039 of the plain order's
// speed where this holds (29 pairs, lowest 1.004); where the footprint rule holds on
// 1x1 and 1x2 clusters 0.984 (14 pairs; why is not known), elsewhere 0.914 (1x1, 1x2)
// and 1.003 (2x1). Split at 20, 25, 35 or 40 MB the sides were closer. Both GPUs have
// 50 MB of L2. modelled_time credits it 0.5%, enough to rank it above the plain order
// of the same tile: at 1.5% it moved a tile choice the calibration does not rank, and
// the tile it moved to ran 6% slower (docs/tuning.md).
inline constexpr double kL2KeptBytes = 30e6;
bool grouped_order_pays(const KernelConfig& c, const Shape& s, int sm_count);
// The rate (bytes/s) at which the model's tiles load from L2 into one SM, stages of
// 24 KiB and more (an H200 near 1.7 GHz, as a tile sustains it), and the share of it
// a stage of `stage_bytes` gets. docs/hardware.md#tma-load-rate holds them against
// one SM's bare TMA stream (traces/hw/tma_rate.json).
inline constexpr double kModelSmLoadRate = 80e9;
double load_efficiency(int64_t stage_bytes);
double modelled_sm_load_rate(int64_t stage_bytes);
double modelled_time_us(const KernelConfig& c, const Shape& s, int sm_count);

}  // namespace gemmscope::tune
