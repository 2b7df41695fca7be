# Cross build for Windows x64 with Debian's MinGW-w64 (scripts/windows-check.sh).
# Programs built here run under Wine, which also runs HDF5's build-time probes.
# After project(): static archives rather than the DLLs' import libraries (mingw-w64-static.cmake).
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/mingw-w64-static.cmake)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# EVOLVE_WIN_DEPS: the libraries cross-built by scripts/windows-deps.sh (an environment
# variable: try_compile re-reads this file without the cache)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 $ENV{EVOLVE_WIN_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR wine)
# One .exe with no DLLs beside it (libgcc, libgomp, winpthread, zlib linked in).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
