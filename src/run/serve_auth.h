/* --serve's checks of basic auth's passwords off the server's one thread: a request whose
 * password is not the one last verified for its user is suspended and its bcrypt check
 * (55 ms at cost 10, 0.9 s at 14) queued for a small pool of workers, which resume it with
 * the verdict; a full queue is refused at once, so that wrong passwords never hold up a
 * scrape whose password is known. */
#ifndef MEMTOP_SERVE_AUTH_H
#define MEMTOP_SERVE_AUTH_H

#include "mhd_lib.h"
#include "webconfig.h"

#define AUTH_WORKERS 2	/* bcrypt checks at once */
#define AUTH_QUEUE   16 /* checks waiting for a worker, at most */

struct auth_pool;
struct auth_job;

/* The workers, started with the signals blocked that the caller has blocked; NULL when
 * they cannot be started */
struct auth_pool *auth_pool_start(struct web_config *w);
/* Suspends c and queues the check of user and password (copied) for a worker, which
 * resumes c with the verdict; NULL, with c not suspended, when the queue is full or the
 * pool stopping. For the server's thread, in the request's handler. */
struct auth_job *auth_pool_submit(struct auth_pool *p, struct MHD_Connection *c, const char *user,
				  const char *password);
/* The verdict of a job whose connection was resumed */
bool auth_job_ok(const struct auth_job *j);
void auth_job_free(struct auth_job *j);
/* Before MHD_stop_daemon: the checks still queued refused and their connections resumed,
 * the workers ended (each after the check it runs, at most one bcrypt); from then on
 * auth_pool_submit refuses */
void auth_pool_stop(struct auth_pool *p);
/* After MHD_stop_daemon: stopped, if not yet, and freed */
void auth_pool_free(struct auth_pool *p);

#endif
