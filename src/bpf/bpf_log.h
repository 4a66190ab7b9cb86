/* libbpf's messages (a verifier's log among them): to stderr with --verbose or
 * MEMTOP_DEBUG=1 in the environment, else dropped, since the full-screen view owns the
 * terminal and each failure is told in one line of memtop's own. */
#ifndef MEMTOP_BPF_LOG_H
#define MEMTOP_BPF_LOG_H

#include <stdbool.h>

/* MEMTOP_DEBUG is set, and not to 0 */
bool bpf_debug_env(void);

/* libbpf's messages to stderr while loading (verbose or bpf_debug_env()), else none */
void bpf_log_loading(bool verbose);

/* libbpf's messages dropped */
void bpf_log_quiet(void);

#endif
