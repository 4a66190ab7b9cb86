/* --serve's connections: a table of those open, for two defences against clients that
 * hold connections without finishing a request (slowloris).
 * The deadline for a whole request: a connection that has not had its request read and
 * its answer sent within the deadline (from its start, or from the end of its last
 * request) is shut down, however steadily it trickles bytes; libmicrohttpd's own timeout
 * counts idle time alone, which a client sending a byte a second never reaches.
 * The limits: a new connection that would pass the number open at once, or from one
 * address, sheds the one that has waited longest without its request read whole (from
 * that address, where its limit is the one reached), rather than being refused; one whose
 * request is read and being answered is never shed, and a newcomer is refused only when
 * every connection is being answered. */
#ifndef MEMTOP_SERVE_DEADLINE_H
#define MEMTOP_SERVE_DEADLINE_H

#include "mhd_lib.h"

struct deadline;

/* The connections' table and the thread that watches it (started with the signals
 * blocked that the caller has blocked), at most max_conns connections open at once and
 * max_per_addr from one address, fewer where the descriptors (RLIMIT_NOFILE less those
 * open and a reserve for memtop's own reads) are fewer; NULL when the thread cannot be
 * started */
struct deadline *deadline_start(double secs, unsigned max_conns, unsigned max_per_addr);
/* libmicrohttpd's connection limit: the connections, and those shed not yet closed */
unsigned deadline_capacity(const struct deadline *dl);
/* After MHD_stop_daemon: the thread ended, the table freed */
void deadline_stop(struct deadline *dl);

/* For MHD_OPTION_NOTIFY_CONNECTION and MHD_OPTION_NOTIFY_COMPLETED, with dl as cls */
void deadline_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode code);
void deadline_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			enum MHD_RequestTerminationCode toe);
/* The accept policy (MHD_start_daemon's apc, with dl as its cls): sheds a connection where
 * the newcomer would pass a limit; MHD_NO where none can be shed */
enum MHD_Result deadline_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen);
/* c's request is read whole: its answer begins, and c is no longer shed */
void deadline_answering(struct deadline *dl, struct MHD_Connection *c);

#endif
