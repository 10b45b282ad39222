#pragma once
// The tunable Hopper kernel's compile-time instances (kernels/sm90/k10_tunable*.cu).
// One list, expanded twice: by the CUDA launchers (one template instance per row)
// and by the host-only tuning code (kernels/tune/), which must never offer a
// configuration that was not compiled.
//
// X(BM, BN, BK, STAGES, CLUSTER_M, CLUSTER_N, DYNAMIC, PINGPONG, SWAP)
//   BM       rows of C per CTA: 64 per consumer warpgroup (64 -> 1, 128 -> 2), or
//            256: two warpgroups of 128 rows, two m64 wgmmas each per k-step. Swapped,
//            256 rows of N by 128-160 columns of M are cuBLAS's tiles where N gives
//            few tiles (cuBLAS under PyTorch 2.11 on the H100, its profiler: 256x136 at
//            1180x3584x4096, 256x144 at 3124x6144x5120), cutting M in steps of 16
//            where 128-row tiles leave a ragged wave
//   BN       columns of C per CTA (one m64nBNk16 wgmma per 64 rows per k-step);
//            not a multiple of 64 (96): the epilogue stores boxes of 32 columns.
//            64x96 (cuBLAS's decode tile) lost to 64x128 with kernel version 3
//            (H200, 2026-11-30; docs/experiments.md) and beat it on 5 of 6
//            decode shapes with version 5 (H200, 2026-11-30; docs/experiments.md);
//            in 2x4 clusters, as cuBLAS runs it, it was slower than in 2x1.
//            160 and 224 (32-column boxes too) fill the waves of N = 10240 and
//            28672 at M = 512 (256 and 512 tiles on 132 SMs) and of N = 5376 at
//            M = 2048 (384 tiles of 128 x 224); 176 (16-column boxes, 32B
//            swizzle) those of N = 5376 at M = 512 (124 tiles, against 112 of
//            128 x 192); 168 (56-column unswizzled boxes) makes 128 tiles there
//            with no ragged column (5376 = 32 x 168), cuBLAS's tile at that
//            shape; in 2x1 clusters each CTA loads 84 of B's rows, a slice that
//            starts mid-atom (H200, 2026-11-30; docs/experiments.md: without
//            B multicast, 1x1 and 1x2, it won no shape). 64x88x128
//            s5 in 2x1 (one 88-column unswizzled store box, 44-row B slices) fills
//            124 of the 132 SMs at 128x5376x4096, where 64 x 96 fills 112; it ran
//            level with 64 x 96 there (18.46 against 18.30-18.62 us), so the decode
//            GEMM is not bound by each SM's share of the stream, and won no shape in
//            the version-7 tune: not compiled (H200, 2026-12-01; docs/experiments.md).
//            64 x 144 and 64 x 168 (16- and 56-column boxes, 72- and 84-row B slices
//            in 2x1) are the 64-row tiles of width N / 32 at N = 4608 and 5376: at
//            M = 256 they make 4 x 32 = 128 tiles, where 64 x 192 makes 96 at N = 4608
//            (H200, 2026-12-01; docs/experiments.md: the best of
//            all candidates there ran at 0.88 of cuBLAS). Through the heuristic they
//            took 256x4608x3584 from 0.83 to 0.90 and 256x5376x4096 from 0.92 to 0.95
//            of cuBLAS
//   STAGES   depth of the TMA -> wgmma ring (as many as fit in 227 KiB next to
//            the epilogue's staging buffers). A stage fewer for a staging buffer
//            per box (the batched epilogue) lost: 128x256 s3, 128x224 s3 and
//            128x168 s4 ran 1-4% slower than their twins on 12 shapes at M = 512
//            to 8192 (H200, 2026-12-01; docs/experiments.md), so none is compiled
//   CLUSTER_M  CTAs per cluster along M (2 or 4: the B tile is multicast to all of
//            them). 64 x 96 swapped in 4x2 is cuBLAS's kind of tile at M = 150-170
//            (64 x 80 and 64 x 88 in 4x2, docs/tuning.md): M's rows, B here, go to four
//            CTAs along N and N's to two along M, and two of its tiles cover M <= 192.
//            It ran at 0.96-1.15 of cuBLAS at M = 137-190 where 8-15 clusters of 8
//            fill the GPU, 0.63-0.96 at M <= 128 or past one wave (H100, 2026-12-06).
//            64 x 80 in 4x2 ran level with it or slower at M <= 160, and 0.52-0.70
//            above; 128 x 80 and 64 x 80 in 2x1 won no mid-M shape (docs/experiments.md)
//   CLUSTER_N  CTAs per cluster along N (2: the A tile is multicast to both; for
//            small M, where every N tile re-reads the same A rows). The kernel
//            takes 2x2 and 2x4 too (A and B multicast, up to 8 CTAs): 64x128 in
//            2x2 ran level with 2x1 at M = 128 and 2x4 3-5% slower, so neither is
//            compiled (H200, 2026-11-30; docs/experiments.md; cuBLAS's decode
//            kernel there runs 64x96 tiles in 8-CTA clusters). 128 x 144, 128 x 192 and
//            128 x 256 in 2x2 (a third fewer L2 reads per flop than 2x1; 30 clusters of
//            4 reach 120 SMs) won none of the 48 shapes in a tune: 0.89 of cuBLAS at
//            512x4096x4096 against 0.97 for 128 x 128 in 2x1, and at M = 8192 no more work
//            per SM than 2x1 (H200, 2026-12-01; docs/experiments.md). 128 x 80
//            swapped in 2x4 is cuBLAS's kind of tile at M = 241-320 (128 x 72 in 2x4 at
//            286x3072x8192, docs/tuning.md): four of its tiles along M cover 320 rows in
//            one cluster. With each stage released to the peers at once it ran at 1.01
//            and 1.22 of cuBLAS at 300x3328x6144 and 315x3584x3584, where `auto` ran 0.78
//            at the first, and below the 64- and 128-row tiles at M = 210-270 or past
//            one wave of its clusters (H200, 2026-12-06; docs/experiments.md). 128 x 72
//            in 2x4 covers M <= 288 in four tiles: at M = 262-286 (N = 3072, 3584) it ran
//            4-7% faster than 128 x 80 (H100, 2026-12-07); 128 x 64 and 128 x 56 in 2x4,
//            for M = 170-250, lost to the tiles taken there (docs/experiments.md).
//            128 x 96 in 2x4 covers M <= 384 in four tiles: at M = 330-376 (N =
//            3072-3840, one wave of its clusters) it ran 1.08-1.14 times as fast as any
//            other candidate (1.11 at 768x1536x4608), and slower on the other 9 of 14
//            such shapes: M <= 256, or N <= 2560 at M = 384-576 (H100, 2026-12-07;
//            bench/results/calibration, narrow mid M)
//   DYNAMIC  0: static persistent schedule; 1: atomic work counter
//   PINGPONG 0: cooperative, the BM / 64 consumer warpgroups split every tile's rows;
//            1: ping-pong (BM = 128), the two consumer warpgroups take whole tiles
//            in turn, so one's epilogue overlaps the other's main loop. BN = 128
//            only: 128 x 192 spills (192 accumulators per thread) and ran slower
//            than its cooperative twin, 128 x 64 slower than the other tiles
//            (H200, 2026-11-30; docs/experiments.md)
//   BK       K depth of a stage: 64 is one 128-byte swizzle row of bf16 (the 128B
//            swizzle is the only mode whose atoms wgmma reads conflict-free at full
//            width), one TMA box per operand; 128 is two such boxes behind one
//            full/empty barrier pair, half as many stages in the same shared memory.
//            At decode, k10's stream of B alone ran 0.86 of cuBLAS's whole GEMM in
//            10 stages of one k-block and 0.94 in 5 stages of two, the same bytes in
//            flight. On the 12 M = 128 shapes, the whole kernel: 64x96 0.80 -> 0.89
//            of cuBLAS (geomean), 64x128 0.88 -> 0.88. 128x128 with BK = 128 (3
//            stages) won no shape in a tune of all 48 and is not compiled
//            (H200, 2026-11-30; docs/experiments.md)
//   SWAP     0: C = A·Bᵀ as given; 1: the operands swapped, Cᵀ = B·Aᵀ: the kernel's
//            rows (BM) run along N and its columns (BN) along M, so a ragged M is
//            cut in BN-wide steps instead of 64-row tiles, and the epilogue
//            writes each staging box transposed (stmatrix .trans) for C's own TMA
//            store. BN a multiple of 8. 128 x 160 and 128 x 208 cut M = 777 into
//            800 and 832 rows, where 128-row tiles take 896. 64 x 64 with BK = 128
//            is a decode tile (M up to 64): 64 rows of B per CTA, N / 64 CTAs each
//            keeping 6 stages of 16 KiB of B in flight, where 64 x 128 in 2x1 keeps 8
//            of 8 KiB; cuBLAS's tile at 8x5376x4096 is 64 x 8 with 16 stages (H100,
//            torch's profiler). 64 x 32 in 9 stages won 8 of 48 small-M calibration
//            shapes (N of 2304-3584) and lost more through the heuristic, which
//            scored 1.037 of cuBLAS there without it and 1.028 with it (H100,
//            2026-12-05; bench/results/calibration): not compiled.
// Every instance also takes, at run time, a block-swizzle group (0 = along M) and a
// split-K factor (1 = bf16 TMA-store epilogue; S > 1 = fp32 partials summed in a
// fixed order by the last split) or stream-K.
#define GEMMSCOPE_K10_INSTANCES(X) \
  X(128, 256, 64, 4, 2, 1, 0, 0, 0)  \
  X(128, 256, 64, 4, 1, 1, 0, 0, 0)  \
  X(128, 256, 64, 4, 2, 1, 1, 0, 0)  \
  X(128, 192, 64, 4, 2, 1, 0, 0, 0)  \
  X(128, 192, 64, 4, 1, 1, 0, 0, 0)  \
  X(128, 128, 64, 6, 2, 1, 0, 0, 0)  \
  X(128, 128, 64, 6, 1, 1, 0, 0, 0)  \
  X(128, 64, 64, 8, 1, 1, 0, 0, 0)   \
  X(64, 128, 64, 8, 1, 1, 0, 0, 0)   \
  X(128, 64, 64, 8, 2, 1, 0, 0, 0)   \
  X(64, 256, 64, 5, 1, 1, 0, 0, 0)   \
  X(128, 128, 64, 6, 2, 1, 1, 0, 0)  \
  X(128, 128, 64, 6, 1, 2, 0, 0, 0)  \
  X(128, 256, 64, 4, 1, 2, 0, 0, 0)  \
  X(128, 64, 64, 8, 1, 2, 0, 0, 0)   \
  X(64, 128, 64, 8, 2, 1, 0, 0, 0)   \
  X(64, 64, 64, 12, 2, 1, 0, 0, 0)   \
  X(64, 192, 64, 6, 2, 1, 0, 0, 0)   \
  X(64, 256, 64, 5, 2, 1, 0, 0, 0)   \
  X(128, 128, 64, 6, 2, 1, 0, 1, 0)  \
  X(128, 128, 64, 6, 1, 2, 0, 1, 0)  \
  X(128, 128, 64, 6, 1, 1, 0, 1, 0)  \
  X(64, 96, 64, 10, 2, 1, 0, 0, 0)  \
  X(128, 160, 64, 5, 2, 1, 0, 0, 0)  \
  X(128, 224, 64, 4, 2, 1, 0, 0, 0)  \
  X(128, 176, 64, 5, 2, 1, 0, 0, 0)  \
  X(64, 96, 128, 5, 2, 1, 0, 0, 0)  \
  X(64, 128, 128, 4, 2, 1, 0, 0, 0) \
  X(64, 64, 128, 6, 2, 1, 0, 0, 0)  \
  X(128, 168, 64, 5, 2, 1, 0, 0, 0)  \
  X(64, 144, 64, 7, 2, 1, 0, 0, 0)  \
  X(64, 168, 64, 7, 2, 1, 0, 0, 0)   \
  X(128, 64, 64, 8, 1, 1, 0, 0, 1)   \
  X(128, 128, 64, 6, 1, 1, 0, 0, 1)  \
  X(128, 160, 64, 5, 1, 1, 0, 0, 1)  \
  X(128, 208, 64, 4, 1, 1, 0, 0, 1)  \
  X(256, 128, 64, 4, 1, 1, 0, 0, 1)  \
  X(256, 144, 64, 4, 1, 1, 0, 0, 1)  \
  X(256, 160, 64, 4, 1, 1, 0, 0, 1)  \
  X(256, 128, 64, 4, 1, 1, 0, 0, 0)  \
  X(64, 64, 128, 6, 1, 1, 0, 0, 1)   \
  X(64, 96, 64, 10, 4, 2, 0, 0, 1)   \
  X(128, 80, 64, 8, 2, 4, 0, 0, 1)   \
  X(128, 72, 64, 8, 2, 4, 0, 0, 1)   \
  X(128, 96, 64, 7, 2, 4, 0, 0, 1)
