// The tunable kernel's configuration space (tune/config.hpp).
#include "tune/config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/sm90_address.hpp"
#include "tune/instances.hpp"
#include "tune/text/shown_text.hpp"

namespace gemmscope::tune {
namespace {

template <class Error = ConfigError>
[[noreturn]] void refuse(std::string_view text, const std::string& why) {
  throw Error("configuration '" + shown_text(text) + "': " + why);
}

// Decimal digits only, 1..max.
int number(std::string_view text, std::string_view field, std::string_view digits, int max) {
  int v = 0;
  const auto* end = digits.data() + digits.size();
  const auto r = std::from_chars(digits.data(), end, v);
  if (digits.empty() || digits.front() == '+' || digits.front() == '-' || r.ec != std::errc() || r.ptr != end ||
      v < 0 || v > max)
    refuse(text, std::string(field) + " = '" + shown_text(digits) + "' must be a decimal number 0.." + std::to_string(max));
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t pos = s.find(sep, start);
    out.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Bytes of one ring stage: BM + BN rows of BK bf16.
int64_t stage_bytes(const KernelConfig& c) { return static_cast<int64_t>(c.bm + c.bn) * c.bk * 2; }

}  // namespace

std::string to_string(const KernelConfig& c) {
  return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) + (c.swap_ab ? ".swap" : "") + ".s" +
         std::to_string(c.stages) + ".wg" + std::to_string(c.consumers) + (c.pingpong ? "pp" : "") + ".c" +
         std::to_string(c.cluster_m) + "x" + std::to_string(c.cluster_n) + "." + (c.schedule == Schedule::Dynamic ? "dynamic" : "static") + ".g" +
         std::to_string(c.group) + (c.stream_k ? std::string(".streamk") : ".sk" + std::to_string(c.splits));
}

KernelConfig instance_config(int bm, int bn, int bk, int stages, int cluster_m, int cluster_n, bool dynamic,
                             bool pingpong, bool swap_ab) {
  return KernelConfig{bm, bn, bk, stages, sm90::k10_consumers(bm), cluster_m, cluster_n,
                      dynamic ? Schedule::Dynamic : Schedule::Static, 0, 1, false, pingpong, swap_ab};
}

const std::vector<KernelConfig>& compiled_instances() {
  static const std::vector<KernelConfig> list = [] {
    std::vector<KernelConfig> v;
#define GEMMSCOPE_K10_ROW(BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG, SWAP) \
  v.push_back(instance_config(BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, (DYNAMIC) != 0, (PINGPONG) != 0, (SWAP) != 0));
    GEMMSCOPE_K10_INSTANCES(GEMMSCOPE_K10_ROW)
#undef GEMMSCOPE_K10_ROW
    return v;
  }();
  return list;
}

int instance_index(const KernelConfig& c) {
  const auto& all = compiled_instances();
  for (size_t i = 0; i < all.size(); ++i) {
    KernelConfig x = c;
    x.group = 0;
    x.splits = 1;
    x.stream_k = false;
    if (x == all[i]) return static_cast<int>(i);
  }
  return -1;
}

KernelConfig parse_config(std::string_view text) {
  auto fields = split(text, '.');
  KernelConfig c;
  if (fields.size() == 8 && fields[1] == "swap") {
    c.swap_ab = true;
    fields.erase(fields.begin() + 1);
  }
  if (fields.size() != 7)
    refuse(text, "expected 7 fields BMxBNxBK.sSTAGES.wgN[pp].cMxN.static|dynamic.gGROUP.skSPLITS|streamk (e.g. 128x256x64.s4.wg2.c2x1.static.g0.sk1), or 8 with .swap after the tile, found " +
                     std::to_string(fields.size()));
  const auto tile = split(fields[0], 'x');
  if (tile.size() != 3) refuse(text, "tile '" + shown_text(fields[0]) + "' must be BMxBNxBK");
  c.bm = number(text, "BM", tile[0], 1024);
  c.bn = number(text, "BN", tile[1], 1024);
  c.bk = number(text, "BK", tile[2], 1024);
  auto prefixed = [&](std::string_view field, std::string_view prefix, const char* name, int max) {
    if (field.substr(0, prefix.size()) != prefix)
      refuse(text, std::string(name) + " field '" + shown_text(field) + "' must start with '" + std::string(prefix) + "'");
    return number(text, name, field.substr(prefix.size()), max);
  };
  c.stages = prefixed(fields[1], "s", "stages", 64);
  std::string_view warpgroups = fields[2];
  if (warpgroups.size() > 2 && warpgroups.substr(warpgroups.size() - 2) == "pp") {
    c.pingpong = true;
    warpgroups.remove_suffix(2);
  }
  c.consumers = prefixed(warpgroups, "wg", "consumer warpgroups", 8);
  if (fields[3].substr(0, 1) != "c") refuse(text, "cluster field '" + shown_text(fields[3]) + "' must be cMxN");
  const auto cluster = split(fields[3].substr(1), 'x');
  if (cluster.size() != 2) refuse(text, "cluster field '" + shown_text(fields[3]) + "' must be cMxN");
  c.cluster_m = number(text, "cluster M", cluster[0], 16);
  c.cluster_n = number(text, "cluster N", cluster[1], 16);
  if (fields[4] == "static") c.schedule = Schedule::Static;
  else if (fields[4] == "dynamic") c.schedule = Schedule::Dynamic;
  else refuse(text, "schedule '" + shown_text(fields[4]) + "' must be static or dynamic");
  c.group = prefixed(fields[5], "g", "group", 1 << 16);
  if (fields[6] == "streamk") {
    c.stream_k = true;
  } else {
    c.splits = prefixed(fields[6], "sk", "split-K", 64);
    if (c.splits < 1) refuse(text, "split-K = 0 must be at least 1");
  }
  if (c.stream_k && c.schedule != Schedule::Static)
    refuse(text, "stream-K needs the static schedule (each worker's k-block range is fixed before the launch)");
  if (c.pingpong && (c.consumers != 2 || c.bm != 128))
    refuse(text, "ping-pong (wg" + std::to_string(c.consumers) +
                     "pp) needs BM = 128 and 2 consumer warpgroups (wg2pp), found BM = " + std::to_string(c.bm));
  if (c.consumers != sm90::k10_consumers(c.bm))
    refuse(text, "BM = " + std::to_string(c.bm) + " needs " + std::to_string(sm90::k10_consumers(c.bm)) +
                     " consumer warpgroups (64 rows each, 128 at BM = 256), found " + std::to_string(c.consumers));
  if (instance_index(c) < 0) {
    std::string list;
    for (const auto& i : compiled_instances()) {
      list += (list.empty() ? "" : ", ") + instance_name(to_string(i));
    }
    refuse<NotCompiledError>(text, "not a compiled instance; compiled: " + list + " (any .gGROUP.skSPLITS|streamk)");
  }
  return c;
}

std::string instance_name(std::string_view config_name) {
  return std::string(config_name.substr(0, config_name.rfind(".g")));
}

namespace {
bool names_instance(std::string_view text) {
  const auto fields = split(text, '.');
  return fields.size() == 5 + (fields.size() > 1 && fields[1] == "swap" ? 1 : 0);
}
}  // namespace

KernelConfig parse_config_or_instance(std::string_view text) {
  return parse_config(names_instance(text) ? std::string(text) + ".g0.sk1" : std::string(text));
}

std::string parse_selection_item(std::string_view text) {
  if (!names_instance(text)) return to_string(parse_config(text));
  return instance_name(to_string(parse_config_or_instance(text)));
}

bool selected(const KernelConfig& c, const std::vector<std::string>& selection) {
  const std::string name = to_string(c);
  return std::any_of(selection.begin(), selection.end(), [&](const std::string& item) {
    return name == item || name.rfind(item + ".g", 0) == 0;
  });
}

std::vector<KernelConfig> sweep_list(const std::vector<KernelConfig>& candidates,
                                     const std::set<std::string>& excluded,
                                     const std::vector<std::string>& selection, const std::string& incumbent) {
  std::vector<KernelConfig> list;
  for (const KernelConfig& c : candidates) {
    const std::string name = to_string(c);
    if (excluded.count(name)) continue;
    if (!selection.empty() && !selected(c, selection) && name != incumbent) continue;
    list.push_back(c);
  }
  return list;
}

std::vector<size_t> refine_picks(const std::vector<double>& medians, int count, double spread) {
  std::vector<size_t> order;
  for (size_t i = 0; i < medians.size(); ++i)
    if (std::isfinite(medians[i])) order.push_back(i);
  if (count < 2 || order.size() < 2) return {};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return medians[a] < medians[b]; });
  const double limit = medians[order[0]] * (1.0 + spread);
  std::vector<size_t> picks;
  for (const size_t i : order) {
    if (static_cast<int>(picks.size()) == count || medians[i] > limit) break;
    picks.push_back(i);
  }
  if (picks.size() < 2) picks.clear();
  return picks;
}

int64_t shared_memory_bytes(const KernelConfig& c) {
  return sm90::k10_shared_bytes(c.bm, c.bn, c.bk, c.stages, sm90::k10_staging_buffers(c.bm, c.bn, c.bk, c.stages));
}

Shape kernel_shape(const KernelConfig& c, const Shape& s) { return c.swap_ab ? Shape{s.n, s.m, s.k} : s; }

Decomposition decompose(const KernelConfig& c, const Shape& user) {
  const Shape s = kernel_shape(c, user);
  Decomposition d;
  d.tiles_m = ceil_div(s.m, c.bm);
  d.tiles_n = ceil_div(s.n, c.bn);
  d.units_m = ceil_div(d.tiles_m, c.cluster_m);
  d.units_n = ceil_div(d.tiles_n, c.cluster_n);
  d.k_blocks = ceil_div(s.k, c.bk);
  d.work = d.units_m * d.units_n * c.splits;
  return d;
}

bool evict_first_b(const KernelConfig& c, const Shape& user, int64_t l2_bytes) {
  const Shape s = kernel_shape(c, user);
  const int64_t b_bytes = s.n * s.k * static_cast<int64_t>(sizeof(uint16_t));  // bf16
  return decompose(c, user).units_m == 1 && b_bytes <= kEvictFirstBMaxL2s * l2_bytes;
}

namespace {
int64_t round_up_8(int64_t rows) { return (rows + 7) / 8 * 8; }
}  // namespace

int64_t a_tail_rows(const KernelConfig& c, const Shape& kernel) {
  if (c.cluster_n != 1 || kernel.m % c.bm == 0) return 0;
  return std::min<int64_t>(c.bm, round_up_8(kernel.m % c.bm));
}

int64_t swapped_b_rows(const KernelConfig& c, const Shape& kernel) {
  return c.swap_ab && c.cluster_m == 1 && kernel.n < c.bn ? round_up_8(kernel.n) : 0;
}

SplitPlan split_plan(const KernelConfig& c, const Shape& s, int64_t workers) {
  const Decomposition d = decompose(c, s);
  SplitPlan p;
  p.tiles = d.units_m * d.units_n;
  workers = std::max<int64_t>(1, workers);
  if (c.stream_k) {
    if (p.tiles % workers != 0) p.sk_tiles = p.tiles < workers ? p.tiles : p.tiles % workers + workers;
    p.dp_tiles = p.tiles - p.sk_tiles;
    p.sk_workers = std::min(workers, p.sk_tiles * d.k_blocks);
    p.units = std::max(p.sk_workers, std::min(p.dp_tiles, workers));
    p.partial_slots = 2 * p.sk_workers;
    p.cut_tiles = p.sk_tiles;
    return p;
  }
  if (c.splits <= 1) {
    p.dp_tiles = p.tiles;
  } else if (p.tiles < workers) {
    p.split_tiles = p.tiles;
  } else {
    p.dp_tiles = p.tiles / workers * workers;
    p.split_tiles = p.tiles - p.dp_tiles;
  }
  p.units = p.dp_tiles + p.split_tiles * c.splits;
  p.partial_slots = p.split_tiles * c.splits;
  p.cut_tiles = p.split_tiles;
  return p;
}

std::string shape_rules(const KernelConfig& c, const Shape& s) {
  if (s.m < 1 || s.n < 1 || s.k < 1) return "M, N, K must be at least 1";
  if (s.k % 8 != 0)
    return "K = " + std::to_string(s.k) + " must be a multiple of 8 for TMA (row stride " + std::to_string(s.k * 2) +
           " bytes must be a multiple of 16)";
  if (s.n % 8 != 0)
    return "N = " + std::to_string(s.n) + " must be a multiple of 8 (C row stride " + std::to_string(s.n * 2) +
           " bytes must be a multiple of 16 for the TMA store and the split-K reduction)";
  if (c.stream_k && c.schedule != Schedule::Static) return "stream-K needs the static schedule";
  if (c.stream_k && c.splits != 1)
    return "stream-K and split-K = " + std::to_string(c.splits) + " exclude each other (split-K must be 1)";
  const Decomposition d = decompose(c, s);
  if (c.splits > d.k_blocks)
    return "split-K = " + std::to_string(c.splits) + " exceeds the " + std::to_string(d.k_blocks) +
           " k-blocks of " + std::to_string(c.bk) + " in K = " + std::to_string(s.k);
  if (d.work >= (int64_t{1} << 31))
    return "the work grid (" + std::to_string(d.work) + " work units) must stay below 2^31";
  return {};
}

std::vector<KernelConfig> candidates(const Shape& s, int sm_count) {
  std::vector<KernelConfig> out;
  for (const KernelConfig& base : compiled_instances()) {
    const Decomposition d = decompose(base, s);
    const int64_t slots = cluster_slots(base, sm_count);
    const int64_t tiles = d.units_m * d.units_n;
    // Swapped 128-row tiles within one wave of tiles only: on the calibration set they
    // won every shape they fit in one wave (M = 150-900, 100-132 tiles) and lost every
    // one they did not (M = 520-2600, 154-676 tiles: 0.70-0.90 of cuBLAS against
    // 0.84-0.97 for the unswapped tiles; H200, 2026-12-04; bench/results/calibration).
    if (base.swap_ab && base.bm < 256 && tiles > slots) continue;
    // Swapped 64-row tiles where one cluster covers M only: at M = 47-90, two or three
    // swapped decode tiles (1x1) along M ran at 0.77-0.97 of cuBLAS, 64-row tiles
    // unswapped at 0.98-1.05 (H100, 2026-12-05; bench/results/calibration); two tiles
    // of 64 x 96 in one 4x2 cluster cover M <= 192.
    if (base.swap_ab && base.bm == 64 && d.units_n > 1) continue;
    std::vector<int> groups{0};
    if (d.units_m > 8) groups.push_back(8);
    // Split-K where the last wave is partial (fewer tiles than clusters, or a
    // remainder after full waves), at least 4 k-blocks per split.
    std::vector<int> splits{1};
    const bool ragged = tiles % slots != 0;
    if (ragged)
      for (const int sk : {2, 3, 4, 6, 8})
        if (d.k_blocks / sk >= 4) splits.push_back(sk);
    for (const int g : groups) {
      for (const int sk : splits) {
        KernelConfig c = base;
        c.group = g;
        c.splits = sk;
        if (shape_rules(c, s).empty()) out.push_back(c);
      }
      KernelConfig c = base;
      c.group = g;
      c.stream_k = true;
      if (ragged && shape_rules(c, s).empty()) out.push_back(c);
    }
  }
  return out;
}

namespace {

// The bytes of A and B that one wave of work tiles touches: the rows of A and columns of
// B it spans, times K. Along M (band = units_m) a wave walks down M first; grouped, down
// a band of `band` rows first.
double wave_footprint_bytes(const KernelConfig& c, const Shape& kernel, const Decomposition& d, int64_t wave,
                            int64_t band) {
  const int64_t rows = std::min({d.units_m, wave, std::max(band, ceil_div(wave, d.units_n))});
  const int64_t cols = std::min(d.units_n, ceil_div(wave, band));
  const int64_t a_rows = std::min(rows * c.cluster_m * c.bm, kernel.m);
  const int64_t b_rows = std::min(cols * c.cluster_n * c.bn, kernel.n);
  return static_cast<double>(a_rows + b_rows) * static_cast<double>(kernel.k) * 2;
}

}  // namespace

bool grouped_order_pays(const KernelConfig& c, const Shape& user, int sm_count) {
  if (c.group == 0 || c.cluster_m < 2) return false;
  const Decomposition d = decompose(c, user);
  const int64_t tiles = d.units_m * d.units_n, slots = cluster_slots(c, sm_count);
  if (tiles <= slots) return false;
  const Shape s = kernel_shape(c, user);
  const double along_m = wave_footprint_bytes(c, s, d, slots, d.units_m);
  const double grouped = wave_footprint_bytes(c, s, d, slots, std::min<int64_t>(c.group, d.units_m));
  return along_m > kL2KeptBytes && grouped < along_m;
}

double load_efficiency(int64_t stage_bytes) {
  // On the H200's 12 M = 128 shapes (geomean), against the same tile with stages of two
  // k-blocks (BK = 128), stages of 16 KiB ran at 0.77 of its speed, of 20 KiB at 0.90
  // and of 24 KiB at 0.99 (64 x 64, 64 x 96 and 64 x 128 tiles with BK = 64; H200,
  // 2026-11-30; docs/experiments.md). Linear between 16 and 24 KiB. One SM's bare TMA
  // stream falls faster: its rate is the stage's bytes over a fixed round trip
  // (docs/hardware.md#tma-load-rate).
  const double stage_kib = static_cast<double>(stage_bytes) / 1024;
  return std::clamp(0.77 + (stage_kib - 16) * (0.23 / 8), 0.77, 1.0);
}

double modelled_sm_load_rate(int64_t stage_bytes) { return kModelSmLoadRate * load_efficiency(stage_bytes); }

ModelledTime modelled_time(const KernelConfig& c, const Shape& user, int sm_count) {
  // Per-SM figures of an H200 near 1.7 GHz: dense bf16 wgmma ~6 TFLOP/s, L2 -> SM
  // 80 GB/s as a tile sustains it; HBM ~3.5 TB/s achievable. Only ratios between
  // configurations matter.
  // Cut tiles (split-K, stream-K) move fp32 partials: BM x BN x 4 bytes per CTA and
  // piece, written once and read back by the piece that sums them. kPartialBytes is
  // what that traffic costs per SM, set from the H200 (2026-11-29, the runs kept at
  // `c863024`, docs/experiments.md): stream-K over 128 tiles of 128 x 256 at
  // 2048x4096x4096 lost ~20 us to whole tiles, about 4 partials of 128 KiB per SM.
  // kModelSmLoadRate, kHbm, kTileOverheadUs, kFillBytes and kTieShare (and the partials
  // in the HBM floor) were fitted to every candidate's time on the 37 synthetic shapes of
  // bench/shapes/calibration.csv (H200, 2026-12-04; bench/results/calibration), keeping
  // every ranking of HeuristicRanksAsMeasured: the model's pick there ran at
  // 0.980 of the fastest candidate's speed (geomean), where the constants before gave
  // 0.951; fitted on either half of the shapes, the other half went from 0.951 to 0.966
  // and 0.977. kFixupUs, a cut tile's fixed cost (its count and the dependent trips
  // through L2), went from 1.0 to 2.5 with the swapped decode tiles: split 2 or 3 ways
  // they ran slower than whole on 7 of the 34 small-M calibration shapes where 1.0 split
  // them (the heuristic's picks: 1.026 -> 1.031 of cuBLAS there, the same picks on the
  // other calibration shapes; H100, 2026-12-05; bench/results/calibration).
  constexpr double kSmFlops = 6.0e12, kHbm = 3.5e12, kTileOverheadUs = 0.5, kFixupUs = 2.5, kPartialBytes = 25e9;
  // At small M most configurations sit on the HBM floor: the tie goes to the one whose
  // tiles alone would finish soonest (kTieShare of their time is added to the floor).
  constexpr double kTieShare = 0.01;
  // The rate at which TMA fills a box's rows past M with zeros: A multicast along N
  // keeps whole boxes (the other clusters load A's tail box, sm90/k10_tunable.hpp).
  constexpr double kFillBytes = 10e9;
  constexpr double kNarrowAlongNSlowdown = 1.1;
  constexpr int64_t kNarrowAlongNMaxRowTiles = 12;
  const Decomposition d = decompose(c, user);
  const int64_t slots = cluster_slots(c, sm_count);
  const SplitPlan plan = split_plan(c, user, slots);
  const Shape s = kernel_shape(c, user);
  // Tensor-core efficiency by tile width, relative to 128 x 256. For BN = 128, set
  // from kernel version 4 on the H200 (2026-11-30; docs/experiments.md,
  // same configurations side by side): 0.986 of 128 x 256 where both ran whole
  // waves (2048x8192x8192), 0.925 once the wave quantisation is taken out of
  // 512x28672x4096; 0.95 between them (0.9 before the leaner main loop). Narrower
  // tiles run at 0.7, but two consumer warpgroups in a cluster of 8 (128 x 72-96 swapped
  // in 2x4, both operands multicast) faster: 128 x 80 at 0.65-0.83 of the tensor rate on
  // the H200 at M = 270-315 (2026-12-06), 128 x 72 at 0.74-0.75 and 128 x 96 at 0.80 on
  // the H100 where their clusters filled one wave (2026-12-07; bench/results/calibration,
  // narrow mid M; tune/instances.hpp, CLUSTER_N).
  const bool cluster_of_8 = c.consumers >= 2 && c.cluster_size() == 8;
  const double eff_n = c.bn >= 256          ? 1.0
                       : c.bn >= 192        ? 0.97
                       : c.bn >= 128        ? 0.95
                       : cluster_of_8       ? (c.bn >= 96 ? 0.8 : 0.75)
                                            : 0.7;
  // One consumer warpgroup (64-row tiles) against two: 0.7 of the tensor rate. At M of
  // 170-420 with long K, 64-row tiles in one wave ran up to 25% slower than 0.85 said
  // (420x2560x11264: 64 x 168 63.5 us, modelled 51; H100, 2026-12-05;
  // bench/results/calibration, mid M). Where one cluster of them covers M (M <= 128
  // in 2x1) 0.85 stays: those shapes sit on the HBM floor, where the tie goes to the
  // shortest tiles, and there the 64-row tiles were the tuned picks (9 of the shipped
  // cache's 12 at M = 128) and the small-M calibration's fastest. Swapped, M runs
  // along the kernel's N: one 4x2 cluster of 64 x 96 covers M <= 192, and 0.85 ranks
  // it as measured there (tune/instances.hpp, CLUSTER_M; HeuristicRanksAsMeasured).
  const int64_t units_along_m = c.swap_ab ? d.units_n : d.units_m;
  const double eff_m = c.consumers >= 2 ? 1.0 : units_along_m > 1 ? 0.7 : 0.85;
  // Tiles of 64 columns in clusters along N (A multicast, each CTA loading its own 64
  // rows of B) where M spans at most 12 row tiles: 128 x 64 in 1x2 took 1.04-1.18 times
  // (geomean 1.11) the time of the same tile in 2x1 at the five shapes of M = 256-896 and
  // N = 1536-2816 where both ran the same waves (H100, 2026-12-07;
  // bench/results/calibration, narrow mid M). At larger M it ran level or faster. Why is
  // not known.
  const bool narrow_along_n = !c.swap_ab && c.cluster_n > 1 && c.bn <= 64 && d.tiles_m <= kNarrowAlongNMaxRowTiles;
  const double along_n_slowdown = narrow_along_n ? kNarrowAlongNSlowdown : 1.0;
  // Bytes one CTA loads per element of K: its slice of A and of B (the rest arrives
  // by multicast). Where one tile covers the kernel's M or N, TMA loads the rows up to
  // it only (a_tail_rows, swapped_b_rows).
  const int64_t tail = d.tiles_m == 1 ? a_tail_rows(c, s) : 0;
  const int64_t short_b = swapped_b_rows(c, s);
  const double a_rows = tail > 0 ? static_cast<double>(tail) : static_cast<double>(c.bm) / c.cluster_n;
  const double b_rows = short_b > 0 ? static_cast<double>(short_b) : static_cast<double>(c.bn) / c.cluster_m;
  const double cta_bytes_per_k = (a_rows + b_rows) * 2;
  // Small stages run slower, the whole tile (the model's compute or load bound alike)
  // waiting on them (load_efficiency).
  const double eff_load = load_efficiency(stage_bytes(c));
  // Rows of A's tiles past M that TMA fills (multicast along N only).
  const double filled_rows =
      c.cluster_n > 1 && s.m % c.bm != 0 ? static_cast<double>(c.bm - s.m % c.bm) / c.cluster_n : 0.0;
  auto tile_us = [&](double k) {
    const double flops = 2.0 * c.bm * c.bn * k;
    return along_n_slowdown * std::max(flops / (kSmFlops * eff_n * eff_m), cta_bytes_per_k * k / kModelSmLoadRate) /
               eff_load * 1e6 +
           kTileOverheadUs + filled_rows * k * 2 / kFillBytes * 1e6;
  };
  const double partial_us = static_cast<double>(c.bm) * c.bn * 4 / kPartialBytes * 1e6;  // one partial, one way
  const double kb = static_cast<double>(d.k_blocks);
  ModelledTime out;
  out.whole_us = std::ceil(static_cast<double>(plan.dp_tiles) / static_cast<double>(slots)) * tile_us(kb * c.bk);
  if (plan.sk_tiles > 0) {
    // Every worker runs an equal share of the stream-K k-blocks; it writes up to two
    // partials and sums its share of the cut tiles, each from about kb / share + 1
    // pieces.
    const double share = std::ceil(static_cast<double>(plan.sk_tiles) * kb / static_cast<double>(plan.sk_workers));
    const bool cut = share < kb || static_cast<int64_t>(share) % d.k_blocks != 0;
    const double pieces = std::ceil(kb / share) + 1;
    const double sums = static_cast<double>(plan.sk_tiles) / static_cast<double>(plan.sk_workers);
    // The workers are at different k offsets, so their loads get little from L2:
    // the stream-K part is charged at the HBM rate. Measured on the H200 (same
    // results): at 2048x5376x21504 it ran at that rate, and on every M = 128 shape
    // of the sweep stream-K lost 15-20% to split-K 2 with the same tile.
    const double cta_bytes = cta_bytes_per_k * share * c.bk;
    const double sk_us = std::max(tile_us(share * c.bk), cta_bytes * plan.sk_workers * c.cluster_size() / kHbm * 1e6);
    out.cut_us += sk_us + (cut ? (2 + sums * pieces) * partial_us + kFixupUs : 0.0);
  }
  if (plan.split_tiles > 0) {
    const double waves = std::ceil(static_cast<double>(plan.split_tiles * c.splits) / static_cast<double>(slots));
    // Each split writes its partial; the last of the S reads all S back.
    out.cut_us += waves * (tile_us(std::ceil(kb / c.splits) * c.bk) + (1 + c.splits) * partial_us + kFixupUs);
  }
  // The HBM floor, at the rate this configuration's stages sustain (eff_load: at M = 128
  // the stream of B from HBM is what small stages slow down).
  // The floor counts the cut tiles' partials (written and read back) with the operands.
  const double floor_bytes = static_cast<double>(s.m * s.k + s.n * s.k + s.m * s.n) * 2 +
                             static_cast<double>(plan.partial_slots) * c.cluster_size() * c.bm * c.bn * 4 * 2;
  out.floor_us = floor_bytes / (kHbm * eff_load) * 1e6;
  const double t = out.whole_us + out.cut_us;
  out.total_us = std::max(t, out.floor_us) + kTieShare * t;
  if (c.schedule == Schedule::Dynamic) out.total_us *= 1.01;
  // The grouped order costs a little, except on the swapped decode tile (1x1): there the
  // two orders ran level on average (221 pairs on the small-M calibration shapes), and the
  // heuristic's picks with the grouped one ran at 1.037 of cuBLAS against 1.030 with
  // the plain one (H100, 2026-12-05; bench/results/calibration). Why is not known.
  // Where a wave along M touches more of A and B than L2 keeps, and a grouped wave
  // less, the grouped order gains (grouped_order_pays).
  if (c.group != 0)
    out.total_us *= c.swap_ab && c.bm == 64 && c.cluster_size() == 1 ? 0.97
                    : grouped_order_pays(c, user, sm_count)          ? 0.995
                                                                     : 1.005;
  return out;
}

double modelled_time_us(const KernelConfig& c, const Shape& user, int sm_count) {
  return modelled_time(c, user, sm_count).total_us;
}

KernelConfig heuristic(const Shape& s, int sm_count) {
  const auto list = candidates(s, sm_count);
  if (list.empty()) throw ConfigError("no configuration of the tunable kernel can run " + std::to_string(s.m) + "x" +
                                     std::to_string(s.n) + "x" + std::to_string(s.k) + ": " +
                                     shape_rules(compiled_instances().front(), s));
  return *std::min_element(list.begin(), list.end(), [&](const KernelConfig& a, const KernelConfig& b) {
    return modelled_time_us(a, s, sm_count) < modelled_time_us(b, s, sm_count);
  });
}

}  // namespace gemmscope::tune
