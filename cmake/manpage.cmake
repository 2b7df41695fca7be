# Writes evolve(1) from the command's own --help texts, verbatim (cmake -P):
#   -DEVOLVE_EXE=path/to/evolve -DOUT=evolve.1 -DVERSION=x.y.z
set(sections "evolve --help" "evolve CONFIG.yaml --help" "evolve ingest --help" "evolve gen-data --help"
             "evolve report --help" "evolve doctor --help" "evolve bars --help" "evolve trades --help")
set(page ".TH EVOLVE 1 \"\" \"evolve ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nevolve \\- find the trading-strategy parameters that made the most money\n")
foreach(cmd IN LISTS sections)
  separate_arguments(argv UNIX_COMMAND "${cmd}")
  list(REMOVE_AT argv 0)
  execute_process(COMMAND ${EVOLVE_EXE} ${argv} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "manpage.cmake: '${cmd}' exited with ${rc}")
  endif()
  # roff: a backslash is \e; a line starting with . or ' would be a request
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(TOUPPER "${cmd}" title)
  if(cmd STREQUAL "evolve --help")
    set(title "SYNOPSIS")
  endif()
  string(APPEND page ".SH \"${title}\"\n.nf\n${text}.fi\n")
endforeach()
file(WRITE ${OUT} "${page}")
