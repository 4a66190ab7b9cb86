/* --serve's deadline for a whole request: a connection that has not had its request read
 * and its answer sent within the deadline (from its start, or from the end of its last
 * request) is shut down, however steadily it trickles bytes; libmicrohttpd's own timeout
 * counts idle time alone, which a client sending a byte a second never reaches. */
#ifndef MEMTOP_SERVE_DEADLINE_H
#define MEMTOP_SERVE_DEADLINE_H

#include "mhd_lib.h"

struct deadline;

/* The connections' table and the thread that watches it (started with the signals
 * blocked that the caller has blocked); NULL when the thread cannot be started */
struct deadline *deadline_start(double secs);
/* After MHD_stop_daemon: the thread ended, the table freed */
void deadline_stop(struct deadline *dl);

/* For MHD_OPTION_NOTIFY_CONNECTION and MHD_OPTION_NOTIFY_COMPLETED, with dl as cls */
void deadline_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		     enum MHD_ConnectionNotificationCode code);
void deadline_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			enum MHD_RequestTerminationCode toe);

#endif
