#!/usr/bin/env bash
# Call 1 (session of 2026-12-01, 21:03-): the two calls the last session prepared and
# could not run, as one batch.
#   1. producer-tail.patch (static schedules without the exit cluster barrier; the
#      producer waits for its ring's last releases): call 4's batch, on the tail build in
#      .carry/ and main (11f3269, the landed kernels) in .carry/old/;
#   2. per-CTA timelines of the tail build with timeline-on-tail.patch (.carry/tail/).
# The binaries travel xz-compressed (.carry/bins.tar.xz): four of them uncompressed and
# the tree together are over the 64 MiB a call carries.
set -uo pipefail
python3 -c "import tarfile; tarfile.open('.carry/bins.tar.xz').extractall('.carry')" || exit 3
X=bench/results/2026-12-01-h200-mainloop/experiments
bash "$X/call-4.sh"
mv "$OUT/logs.tgz" "$OUT/logs-batch.tgz"; mv "$OUT/summary.txt" "$OUT/summary-batch.txt"
TIMELINE_BUILDS=tail bash "$X/timeline-call.sh"
cat "$OUT/summary-batch.txt"
