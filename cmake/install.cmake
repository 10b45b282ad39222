# cmake --install: the package find_package(gemmscope COMPONENTS model traces testing)
# finds (cmake/gemmscopeConfig.cmake.in). One export set per component:
#   model    gemmscope::model                    the host-only model (model/CMakeLists.txt)
#   traces   gemmscope::traces                   trace format, analysis, pictures, decoder
#            gemmscope::trace_recorder           the device-side recorder header alone
#   testing  gemmscope::testing                  address properties, generators, reference
#            gemmscope::differential             the differential harness (where CUDA is)
# Only public headers are installed: nothing of kernels/, no simulator bindings.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(GEMMSCOPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gemmscope)

# traces reads and writes the user's files through the text utilities
# (kernels/tune/text/), a static library it links privately: installed with it, as an
# implementation detail (no headers). Its include path names the source tree, which an
# installed target may not: the build tree alone keeps it.
get_target_property(_gemmscope_text_includes gemmscope_text INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(gemmscope_text PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${_gemmscope_text_includes}>" EXPORT_NAME text_internal)
install(TARGETS gemmscope_traces gemmscope_trace_recorder gemmscope_text EXPORT gemmscope-traces
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY traces/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(_gemmscope_testing_targets gemmscope_testing)
set(GEMMSCOPE_HAVE_DIFFERENTIAL OFF)
if(TARGET gemmscope_differential)
  list(APPEND _gemmscope_testing_targets gemmscope_differential)
  set(GEMMSCOPE_HAVE_DIFFERENTIAL ON)
endif()
install(TARGETS ${_gemmscope_testing_targets} EXPORT gemmscope-testing ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
list(TRANSFORM GEMMSCOPE_TESTING_PUBLIC_HEADERS PREPEND ${PROJECT_SOURCE_DIR}/verify/lib/)
install(FILES ${GEMMSCOPE_TESTING_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gemmscope/testing)

set(GEMMSCOPE_COMPONENTS model traces testing)
foreach(component ${GEMMSCOPE_COMPONENTS})
  install(EXPORT gemmscope-${component} NAMESPACE gemmscope:: DESTINATION ${GEMMSCOPE_CMAKE_DIR}
          FILE gemmscope-${component}-targets.cmake)
endforeach()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gemmscopeConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/gemmscopeConfig.cmake INSTALL_DESTINATION ${GEMMSCOPE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gemmscopeConfigVersion.cmake
  VERSION ${GEMMSCOPE_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gemmscopeConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/gemmscopeConfigVersion.cmake
        DESTINATION ${GEMMSCOPE_CMAKE_DIR})
