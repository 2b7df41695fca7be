# `cmake --install BUILD` (README "Install"): the command, libevolve and its
# header, a pkg-config file, a man page made from `evolve --help`, the docs.
# Included by the top CMakeLists.txt after the evolve and evolve_lib targets.
# The default prefix is one the user can write: ~/.local (whose bin/ Debian's and
# Ubuntu's ~/.profile put on PATH), or /usr/local for root (on root's PATH there).
if(CMAKE_INSTALL_PREFIX_INITIALIZED_TO_DEFAULT AND NOT WIN32 AND DEFINED ENV{HOME})
  execute_process(COMMAND id -u OUTPUT_VARIABLE EVOLVE_UID OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT EVOLVE_UID STREQUAL "0")
    set(CMAKE_INSTALL_PREFIX "$ENV{HOME}/.local" CACHE PATH "Install prefix" FORCE)
  endif()
endif()
include(GNUInstallDirs)

install(TARGETS evolve RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS evolve_lib
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/evolve.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# A user prefix (~/.local/lib) is not on the loader's path: the run path in Libs
# lets a program built with `pkg-config --libs evolve` start without LD_LIBRARY_PATH.
# Paths relative to the .pc file's own folder, so that `cmake --install --prefix P` holds.
file(RELATIVE_PATH EVOLVE_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" EVOLVE_PC_TO_PREFIX "${EVOLVE_PC_TO_PREFIX}")
# A build against .deps (scripts/deps-env.sh): libevolve's run path finds the packed libraries at
# run time, but the linker of a program using it needs their folder for their own dependencies.
set(EVOLVE_PC_DEPS_LINK "")
if(EVOLVE_DEPS_RPATH)
  string(REPLACE ":" ";" deps_dirs "${EVOLVE_DEPS_RPATH}")
  foreach(d ${deps_dirs})
    string(APPEND EVOLVE_PC_DEPS_LINK " -Wl,-rpath-link,${d}")
  endforeach()
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/evolve.pc.in ${PROJECT_BINARY_DIR}/evolve.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/evolve.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The man page is `evolve --help` itself, so it cannot drift from the command.
if(NOT CMAKE_CROSSCOMPILING)
  add_custom_command(
    OUTPUT ${PROJECT_BINARY_DIR}/evolve.1
    COMMAND ${CMAKE_COMMAND} -DEVOLVE_EXE=$<TARGET_FILE:evolve> -DOUT=${PROJECT_BINARY_DIR}/evolve.1
            -DVERSION=${PROJECT_VERSION} -P ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake
    DEPENDS evolve ${CMAKE_CURRENT_LIST_DIR}/manpage.cmake VERBATIM)
  add_custom_target(evolve_manpage ALL DEPENDS ${PROJECT_BINARY_DIR}/evolve.1)
  install(FILES ${PROJECT_BINARY_DIR}/evolve.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# The README's links (docs/..., results/README.md) resolve in the installed copy too.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/results/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/results)
