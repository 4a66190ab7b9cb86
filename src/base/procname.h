/* A process's short name: for an interpreter (python, perl, ruby, node, java, a shell...)
 * the script or main class its command line runs, else its name. The one rule every
 * view that names a process in a few characters follows. */
#ifndef MEMTOP_PROCNAME_H
#define MEMTOP_PROCNAME_H

#include <stdbool.h>
#include <stddef.h>

/* Room for a short name: a script's name is cut to 63 bytes */
#define PROC_NAME_SIZE 64

/* Where cmd (a command line, its arguments joined by spaces) names the script an
 * interpreter runs: its program's base name is an interpreter's (python3.11, perl,
 * bash...), and past its options comes a script, a module (python -m), a jar (java -jar)
 * or a main class. *at and *len: that script's name without its directory (a main
 * class's last part: "org.x.Main" -> "Main"); *path: where its whole argument starts.
 * False where it names none (not an interpreter, "-c" or "-e" code, no argument). */
bool cmd_script(const char *cmd, const char **path, const char **at, size_t *len);

/* The short name of a process named comm running cmd (either may be NULL): the script's
 * name (cmd_script) or comm, raw, into out; returns its length */
size_t proc_short_name(const char *comm, const char *cmd, char *out, size_t size);

/* cmd shortened for a narrow column: its program without its directory, and an
 * interpreter's script without its directory too ("/usr/bin/python3 /tmp/d/x.py -v" ->
 * "python3 x.py -v"), into out; returns its length */
size_t cmd_brief(const char *cmd, char *out, size_t size);

#endif
