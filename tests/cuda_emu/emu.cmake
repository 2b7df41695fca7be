# EVOLVE_CUDA_EMU: the CUDA backend and the gpu tests built against the CPU
# execution layer of this folder (kernels/README.md, "Emulation"). A test
# build only: refused for Release builds, never part of the default build.
#
# Sets EVOLVE_EMU_SRC (the rewritten sources), evolve_emu_target(tgt) (the
# flags, for evolve_target_defaults), the library evolve_cuda_emu and the function
# evolve_emu_sources(var) that maps .cu files to their rewritten copies.
if(CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
  message(FATAL_ERROR "EVOLVE_CUDA_EMU is for test builds: use -DCMAKE_BUILD_TYPE=RelWithDebInfo or Debug, "
                      "never a release build")
endif()
enable_language(CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
# cuRAND's header-only Philox compiles for the host as it is: the toolkit's headers, searched last.
find_package(CUDAToolkit REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(EVOLVE_EMU_DIR ${PROJECT_SOURCE_DIR}/tests/cuda_emu)
set(EVOLVE_EMU_SRC ${PROJECT_BINARY_DIR}/emu_src)

# Every .cu and .cuh rewritten at configure time (and again when one changes).
file(GLOB _emu_files RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/kernels/*.cu ${PROJECT_SOURCE_DIR}/kernels/*.cuh
     ${PROJECT_SOURCE_DIR}/tests/*.cu ${PROJECT_SOURCE_DIR}/tests/support/*.cuh)
# (#line paths relative to the build folder: a planted-bug copy's, tests/cuda_emu/planted_bugs.py, are the same)
execute_process(COMMAND ${Python3_EXECUTABLE} ${EVOLVE_EMU_DIR}/rewrite.py --source-dir ${PROJECT_SOURCE_DIR}
                        --out-dir ${EVOLVE_EMU_SRC} --line-base ${PROJECT_BINARY_DIR} ${_emu_files}
                RESULT_VARIABLE _emu_rc)
if(NOT _emu_rc EQUAL 0)
  message(FATAL_ERROR "tests/cuda_emu/rewrite.py failed")
endif()
foreach(f IN LISTS _emu_files)
  set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${f})
endforeach()
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${EVOLVE_EMU_DIR}/rewrite.py)

# How every C++ file of an emu build compiles: the layer's headers first (its
# cuda_runtime.h force-included, as nvcc does), the rewritten .cuh next, the
# toolkit's last; __CUDACC__ so common/hd.h takes nvcc's branch; exact floating point.
# (-Wno-missing-field-initializers: the C headers' `= {0}` idiom, fine in C, is warned about in C++;
# -Wno-maybe-uninitialized: g++ guesses wrong through operators/breed.h's gathers.)
set(EVOLVE_EMU_CXX_WARNINGS -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-missing-field-initializers
    -Wno-maybe-uninitialized)
if(EVOLVE_WERROR)
  list(APPEND EVOLVE_EMU_CXX_WARNINGS -Werror)
endif()
set(EVOLVE_EMU_CXX_FLAGS ${EVOLVE_EMU_CXX_WARNINGS} -ffp-contract=off -fno-fast-math -D__CUDACC__
    -DEVOLVE_CUDA_EMU=1 -idirafter ${CUDAToolkit_INCLUDE_DIRS} -include cuda_runtime.h)
set(EVOLVE_EMU_INCLUDES ${EVOLVE_EMU_DIR}/include ${EVOLVE_EMU_SRC})

# The flags above on every C++ file of tgt, the layer's include folders before any other.
function(evolve_emu_target tgt)
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${EVOLVE_EMU_CXX_FLAGS}>)
  foreach(dir IN LISTS EVOLVE_EMU_INCLUDES)
    target_include_directories(${tgt} BEFORE PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${dir}>)
  endforeach()
endfunction()
# EVOLVE_EMU_TSAN: the emulated kernels (and the tests' .cu) under ThreadSanitizer, which sees
# each CUDA thread as a thread and only CUDA's happens-before edges (scheduler.cpp).
if(EVOLVE_EMU_TSAN)
  if(EVOLVE_SANITIZE)
    message(FATAL_ERROR "EVOLVE_EMU_TSAN and EVOLVE_SANITIZE (ASan) exclude each other")
  endif()
  list(APPEND EVOLVE_EMU_CXX_FLAGS -fsanitize=thread -DEVOLVE_EMU_TSAN=1)
endif()

# .cu paths (absolute, or relative to the calling directory) -> their rewritten copies.
function(evolve_emu_sources var)
  set(out)
  foreach(s IN LISTS ${var})
    if(s MATCHES "\\.cu$")
      get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
      list(APPEND out ${EVOLVE_EMU_SRC}/${rel}.cpp)
    else()
      list(APPEND out ${s})
    endif()
  endforeach()
  set(${var} ${out} PARENT_SCOPE)
endfunction()

add_library(evolve_cuda_emu STATIC ${EVOLVE_EMU_DIR}/fiber.cpp ${EVOLVE_EMU_DIR}/scheduler.cpp
            ${EVOLVE_EMU_DIR}/schedule.cpp ${EVOLVE_EMU_DIR}/device_memory.cpp ${EVOLVE_EMU_DIR}/runtime.cpp
            ${EVOLVE_EMU_DIR}/counters.cpp)
evolve_emu_target(evolve_cuda_emu)
set_target_properties(evolve_cuda_emu PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(evolve_cuda_emu PUBLIC $<$<NOT:$<C_COMPILER_ID:MSVC>>:stdc++>)
if(EVOLVE_EMU_TSAN)
  # the layer's own bookkeeping is not instrumented: its edges are annotated instead
  target_compile_options(evolve_cuda_emu PRIVATE -fno-sanitize=thread)
  target_link_options(evolve_cuda_emu PUBLIC -fsanitize=thread)
elseif(EVOLVE_SANITIZE AND NOT MSVC)
  # Under ASan the layer poisons device memory and annotates its fiber switches (calls into the ASan runtime
  # the tests link), but its own bookkeeping is not instrumented: the scheduler's every switch checked made
  # test_cuda_parity 1.35 times slower.
  target_compile_options(evolve_cuda_emu PRIVATE -fno-sanitize=address,undefined)
  target_compile_definitions(evolve_cuda_emu PRIVATE EVOLVE_EMU_ASAN=1)
endif()
message(STATUS "evolve: CUDA backend EMULATED on the CPU (tests/cuda_emu; a test build)")
