# Run at every build (cmake -DSOURCE=<tree> -DOUT=<header> -P write_commit.cmake): writes
# the source tree's short commit, "+dirty" where tracked files differ from it, into the
# header that stamps bench results, rewriting it only when the commit changed (so an
# unchanged commit rebuilds nothing). A tree without git stamps "unknown".
execute_process(COMMAND git -C ${SOURCE} rev-parse --short HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C ${SOURCE} status --porcelain --untracked-files=no OUTPUT_VARIABLE changes
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT changes STREQUAL "")
    string(APPEND commit "+dirty")
  endif()
endif()
set(text "#pragma once\n// Generated at build time by tools/bench/write_commit.cmake.\n#define GEMMSCOPE_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
