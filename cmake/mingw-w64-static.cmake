# Included after project() by the Windows toolchain (mingw-w64.cmake): Windows-GNU's platform
# file, read after the toolchain, puts the DLLs' import libraries (.dll.a) first; evolve.exe
# links the static archives instead, so it runs with no DLL beside it.
set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
