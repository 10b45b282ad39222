#!/usr/bin/env bash
# Prepared as call 5, not run (no device was lent again this session): the check and the
# measure of producer-tail.patch. Static schedules drop the exit cluster barrier (its
# release arrive puts a MEMBAR.ALL.GPU between each consumer's main loop and its epilogue,
# call 4's SASS); the producer waits for its ring's last releases instead (load_tail).
# Here: git apply producer-tail.patch, tools/build, tools/gpu-pack, and the binaries
# without it in .carry/old/ (with their COMMIT). There it is call 4's batch on those
# binaries: k10's differential tests, the three sanitizers, the 48 shapes old against
# new twice, and ncu at 512x4096x4096.
exec bash "$(dirname "$0")/call-4.sh"
