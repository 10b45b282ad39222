# The timeline recorder costs nothing compiled out: a k10 instance, and each of k06-k09,
# built from the instrumented sources (GEMMSCOPE_TIMELINE not defined) has the same
# SASS as one built from a copy of the sources with every line that names the recorder
# removed (the macro calls, the header's include, the namespace alias and markers). A
# third build, with GEMMSCOPE_TIMELINE defined, must differ: the comparison can see a
# change.
#   cmake -DSOURCE=<repo> -DWORK=<dir> -DNVCC=<nvcc> -DREADELF=<readelf> [-DCUOBJDUMP=<cuobjdump>]
#         -DGENERATED=<build>/generated -P timeline_sass_test.cmake
foreach(v SOURCE WORK NVCC READELF GENERATED)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "timeline_sass_test: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/stripped)

# Lines of kernels/sm90/<file> that match regex, counted into out.
function(count_lines file regex out)
  file(STRINGS ${SOURCE}/kernels/sm90/${file} hits REGEX "${regex}")
  list(LENGTH hits n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# The instrumented parts must hold recorder calls, else the test proves nothing.
set(ladder k06_warp_specialized k07_epilogue_double_buffer k08_persistent k09_block_swizzle)
set(parts k10/producer.cuh k10/mainloop.cuh k10/epilogue.cuh)
set(kernel_files k10_tunable.cuh)
foreach(kernel ${ladder})
  list(APPEND parts ${kernel}.cu)
  list(APPEND kernel_files ${kernel}.cu)
endforeach()
foreach(part ${parts})
  count_lines(${part} "GEMMSCOPE_TIMELINE_EVENT\\(" n)
  if(n EQUAL 0)
    message(FATAL_ERROR "timeline_sass_test: kernels/sm90/${part} has no GEMMSCOPE_TIMELINE_EVENT call")
  endif()
endforeach()

# Each kernel that records sets its writers up at its start: an event without that
# would read what an earlier kernel left in shared memory.
foreach(f ${kernel_files})
  count_lines(${f} "GEMMSCOPE_TIMELINE_CTA_BEGIN\\(\\)" n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "timeline_sass_test: kernels/sm90/${f} has ${n} GEMMSCOPE_TIMELINE_CTA_BEGIN() calls, not 1")
  endif()
endforeach()

# The stripped copy: kernels/ with every line naming GEMMSCOPE_TIMELINE or "timeline" removed.
file(COPY ${SOURCE}/kernels DESTINATION ${WORK}/stripped)
file(GLOB_RECURSE sources ${WORK}/stripped/kernels/*.cuh ${WORK}/stripped/kernels/*.hpp ${WORK}/stripped/kernels/*.cu)
set(removed 0)
foreach(f ${sources})
  file(STRINGS ${f} hits REGEX "timeline|GEMMSCOPE_TIMELINE")
  list(LENGTH hits n)
  if(n GREATER 0)
    math(EXPR removed "${removed} + ${n}")
    # sed, not a CMake list: a CMake list would split lines at ';' and join them at '['.
    execute_process(COMMAND sed -i -E "/timeline|GEMMSCOPE_TIMELINE/d" ${f} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "timeline_sass_test: sed failed on ${f}")
    endif()
  endif()
endforeach()
if(removed EQUAL 0)
  message(FATAL_ERROR "timeline_sass_test: no timeline line found to remove")
endif()
message(STATUS "removed ${removed} timeline lines from the stripped copy")

# source: the translation unit; kernel: a regex its kernels' section names match.
function(build tree defines out source kernel)
  execute_process(
    COMMAND ${NVCC} -std=c++20 -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr -cubin ${defines}
            -I${tree} -I${tree}/include -I${SOURCE}/model/include -I${SOURCE}/traces/include -I${GENERATED}
            ${source} -o ${WORK}/${out}.cubin
    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "timeline_sass_test: nvcc failed for ${out}:\n${err}")
  endif()
  # The kernel's machine code and its attributes: the bytes of each .text.<kernel> and
  # .nv.info.<kernel> section (readelf works on any ELF, the cubin's too), without the
  # section names. With cuobjdump at hand, its SASS text as well, without addresses.
  execute_process(COMMAND ${READELF} -S -W ${WORK}/${out}.cubin OUTPUT_VARIABLE sections ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "timeline_sass_test: readelf could not read ${WORK}/${out}.cubin")
  endif()
  string(REGEX MATCHALL "\\.(text|nv\\.info)\\.[^ \n]+" names "${sections}")
  list(FILTER names INCLUDE REGEX "${kernel}")
  list(LENGTH names n)
  if(n LESS 2)
    message(FATAL_ERROR "timeline_sass_test: ${out}: no ${kernel} code section in the cubin: not the kernel")
  endif()
  set(code "")
  foreach(name ${names})
    execute_process(COMMAND ${READELF} -x ${name} ${WORK}/${out}.cubin OUTPUT_VARIABLE hex ERROR_QUIET)
    # The hex words only: the ASCII column may hold ; or [, which a CMake list splits or joins at.
    string(REGEX MATCHALL "  0x[0-9a-f]+( [0-9a-f]+)+" rows "${hex}")
    string(REGEX REPLACE "ZN9gemmscope[^ ]*" "<kernel>" kind "${name}")
    string(APPEND code "${kind}\n")
    foreach(row ${rows})
      string(APPEND code "${row}\n")
    endforeach()
  endforeach()
  if(CUOBJDUMP)
    execute_process(COMMAND ${CUOBJDUMP} -sass ${WORK}/${out}.cubin RESULT_VARIABLE rc OUTPUT_VARIABLE sass ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "timeline_sass_test: cuobjdump failed for ${out}:\n${err}")
    endif()
    string(REGEX REPLACE "/\\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\\*/" "" sass "${sass}")
    string(REGEX REPLACE "[^\n]*(\\.cubin|Function :)[^\n]*\n" "" sass "${sass}")
    string(APPEND code "${sass}")
  endif()
  file(WRITE ${WORK}/${out}.code "${code}")
endfunction()

# compare(name): the three builds of `name`, compiled out, stripped and recording.
function(compare name)
  file(READ ${WORK}/${name}-off.code off)
  file(READ ${WORK}/${name}-stripped.code stripped)
  file(READ ${WORK}/${name}-on.code on)
  if(NOT off STREQUAL stripped)
    message(FATAL_ERROR "timeline_sass_test: ${name}: the SASS with the recorder compiled out differs from the build "
                        "without it: diff ${WORK}/${name}-off.code ${WORK}/${name}-stripped.code")
  endif()
  if(off STREQUAL on)
    message(FATAL_ERROR "timeline_sass_test: ${name}: the recording build's SASS equals the plain one: the comparison "
                        "sees nothing")
  endif()
  message(STATUS "timeline_sass_test: ${name}: compiled-out SASS identical to the build without the recorder; "
                 "recording build differs")
endfunction()

# The k10 instance's source includes "sm90/k10_tunable.cuh" through -I<tree> only: the
# quoted include searches the instance's own folder (verify/cpu) first, which has none.
set(instance ${SOURCE}/verify/cpu/timeline_sass_instance.cu)
build(${SOURCE}/kernels "" k10-off ${instance} k10_tunable)
build(${WORK}/stripped/kernels "" k10-stripped ${instance} k10_tunable)
build(${SOURCE}/kernels "-DGEMMSCOPE_TIMELINE" k10-on ${instance} k10_tunable)
compare(k10)
# k06-k09: each kernel file is a whole translation unit, from its own tree.
foreach(kernel ${ladder})
  string(REGEX MATCH "^k0[0-9]" name ${kernel})
  # The kernel function's name: k08 and k09 name theirs kNN_persistent.
  string(REGEX REPLACE "_block_swizzle$" "_persistent" function ${kernel})
  build(${SOURCE}/kernels "" ${name}-off ${SOURCE}/kernels/sm90/${kernel}.cu ${function})
  build(${WORK}/stripped/kernels "" ${name}-stripped ${WORK}/stripped/kernels/sm90/${kernel}.cu ${function})
  build(${SOURCE}/kernels "-DGEMMSCOPE_TIMELINE" ${name}-on ${SOURCE}/kernels/sm90/${kernel}.cu ${function})
  compare(${name})
endforeach()
