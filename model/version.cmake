# gemmscope's version, in one place: read by the top CMakeLists.txt (its project()) and
# by model/CMakeLists.txt, so that a project adding model/ alone, with no version of
# its own or another one, still installs the package at gemmscope's version.
set(GEMMSCOPE_VERSION 0.1.0)
