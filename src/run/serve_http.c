#include "serve_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "metric.h"
#include "mhd_lib.h"
#include "paced.h"
#include "parse.h"
#include "serve_auth.h"
#include "serve_deadline.h"
#include "util.h"
#include "views.h"
#include "webconfig.h"
#include "groups.h"

#define CONTENT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define CONTENT_OM   "application/openmetrics-text; version=1.0.0; charset=utf-8"
/* The server's limits: connections at once, from one address (at most: fewer where the
 * descriptors are fewer; past either, a newcomer sheds the connection that has waited
 * longest without its request read: serve_deadline.h), idle seconds before one is closed,
 * seconds for a whole request (its reading and its answer, however steadily the client
 * trickles), and the memory each gets for its request (the answers are shared, not
 * copied) */
#define SERVE_CONNECTIONS 512
#define SERVE_PER_IP	  256
#define SERVE_TIMEOUT_S	  10
#define SERVE_REQUEST_S	  10
#define SERVE_CONN_MEMORY (32 * 1024)

static void expo_put(struct server *sv, struct expo *e)
{
	pthread_mutex_lock(&sv->lock);
	bool last = --e->refs == 0;
	pthread_mutex_unlock(&sv->lock);
	if (!last)
		return;
	for (int f = 0; f < 2; f++) {
		free(e->text[f]);
		free(e->gz[f]);
	}
	free(e);
}

struct release {
	struct server *sv;
	struct expo *e;
};

static void release_answer(void *cls)
{
	struct release *r = cls;

	expo_put(r->sv, r->e);
	free(r);
}

static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");

	return accept && strstr(accept, "application/openmetrics-text");
}

/* Accept-Encoding names gzip, not refused with q=0 */
static bool wants_gzip(struct MHD_Connection *c)
{
	const char *ae = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept-Encoding");
	const char *g = ae ? strcasestr(ae, "gzip") : NULL;

	if (!g)
		return false;
	g += 4;
	g += strspn(g, " \t");
	if (*g != ';')
		return true;
	const char *q = strstr(g, "q=");
	return !q || strtod(q + 2, NULL) > 0;
}

/* text, n bytes, gzipped into *out (malloc'd); 0 where zlib fails */
static size_t gzip(const char *text, size_t n, char **out)
{
	z_stream z = {0};
	size_t len = 0;

	*out = NULL;
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	uLong cap = deflateBound(&z, (uLong)n);
	*out = xmalloc(cap);
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)*out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		len = z.total_out;
	deflateEnd(&z);
	if (!len) {
		free(*out);
		*out = NULL;
	}
	return len;
}

static void count(struct server *sv, enum export_code code, bool gz)
{
	pthread_mutex_lock(&sv->lock);
	sv->stats.requests[code]++;
	sv->stats.gzip += gz;
	pthread_mutex_unlock(&sv->lock);
}

/* The last refresh's exposition, in the format and encoding asked for: the shared text
 * (gzipped once, by the first scrape that asks) */
static enum MHD_Result metrics(struct server *sv, struct MHD_Connection *c)
{
	int f = wants_openmetrics(c);
	bool gz = wants_gzip(c);
	struct release *r = xmalloc(sizeof(*r));

	pthread_mutex_lock(&sv->lock);
	r->sv = sv;
	r->e = sv->cur;
	r->e->refs++;
	if (gz && !r->e->gz[f])
		r->e->gzlen[f] = gzip(r->e->text[f], r->e->len[f], &r->e->gz[f]);
	gz = gz && r->e->gz[f];
	pthread_mutex_unlock(&sv->lock);
	struct MHD_Response *resp = MHD_create_response_from_buffer_with_free_callback_cls(
		gz ? r->e->gzlen[f] : r->e->len[f], gz ? r->e->gz[f] : r->e->text[f],
		release_answer, r);
	if (!resp) {
		release_answer(r);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, f ? CONTENT_OM : CONTENT_TEXT);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding");
	if (gz)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	if (ok == MHD_YES)
		count(sv, EXPORT_200, gz);
	return ok;
}

/* GET and HEAD of /metrics and /; 404 for other paths, 405 for other methods (MHD leaves
 * the body out of the answer to HEAD) */
static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **req_cls)
{
	struct server *sv = cls;
	bool metrics_url = !strcmp(url, "/metrics"), root = !strcmp(url, "/");
	(void)version, (void)upload;

	/* --web-config's users: every request names one and its password (basic auth),
	 * checked at the first call: a password verified before at once, another by a
	 * worker (bcrypt), the request suspended meanwhile */
	if (!*req_cls && sv->web && sv->web->nusers) {
		char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
		bool known = web_config_known(sv->web, user, pass);
		struct auth_job *j =
			known || !user || !pass ? NULL : auth_pool_submit(sv->auth, c, user, pass);
		bool busy = !known && user && pass && !j;
		MHD_free(user);
		MHD_free(pass);
		if (j) {
			*req_cls = j;
			return MHD_YES;
		}
		if (busy) {
			count(sv, EXPORT_503, false);
			return MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, sv->busy);
		}
		if (!known) {
			count(sv, EXPORT_401, false);
			return MHD_queue_response(c, MHD_HTTP_UNAUTHORIZED, sv->unauthorized);
		}
	} else if (*req_cls && *req_cls != sv) { /* resumed with the worker's verdict */
		bool ok = auth_job_ok(*req_cls);
		auth_job_free(*req_cls);
		*req_cls = sv;
		if (!ok) {
			count(sv, EXPORT_401, false);
			return MHD_queue_response(c, MHD_HTTP_UNAUTHORIZED, sv->unauthorized);
		}
	}
	/* 404 and 405 at the first call, with the request's headers (the connection is then
	 * closed, whatever body the request has left unread) */
	if (!metrics_url && !root) {
		count(sv, EXPORT_404, false);
		return MHD_queue_response(c, MHD_HTTP_NOT_FOUND, sv->not_found);
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		count(sv, EXPORT_405, false);
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, sv->not_allowed);
	}
	/* the answer at the next call, once the request is read whole, so that the connection
	 * is kept alive for the next request */
	if (!*req_cls) {
		*req_cls = sv;
		return MHD_YES;
	}
	if (*upload_size) { /* a body sent with GET: read and left aside */
		*upload_size = 0;
		return MHD_YES;
	}
	if (root) {
		count(sv, EXPORT_200, false);
		return MHD_queue_response(c, MHD_HTTP_OK, sv->page);
	}
	return metrics(sv, c);
}

/* answer(), once the connection is marked as being answered: never shed (the request
 * read whole) */
static enum MHD_Result answering(void *cls, struct MHD_Connection *c, const char *url,
				 const char *method, const char *version, const char *upload,
				 size_t *upload_size, void **req_cls)
{
	struct server *sv = cls;

	deadline_answering(sv->deadline, c);
	return answer(cls, c, url, method, version, upload, upload_size, req_cls);
}

static struct MHD_Response *fixed(const char *text, const char *type)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

static const char page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>memtop</title></head>\n"
	"<body><h1>memtop</h1><p>Memory, swap, reclaim, processes and OOM kills as metrics: "
	"<a href=\"metrics\">/metrics</a></p></body></html>\n";

/* A request ended: its deadline's next start, and an error counted where its answer was
 * not sent whole */
static void completed(void *cls, struct MHD_Connection *c, void **req_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct server *sv = cls;

	deadline_completed(sv->deadline, c, req_cls, toe);
	if (*req_cls && *req_cls != sv) /* closed before its check's verdict was read */
		auth_job_free(*req_cls);
	*req_cls = NULL;
	if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ||
	    toe == MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN)
		return;
	pthread_mutex_lock(&sv->lock);
	sv->stats.errors++;
	pthread_mutex_unlock(&sv->lock);
}

/* ADDR:PORT, [ADDR]:PORT for IPv6 */
const char *addr_text(const struct sockaddr_storage *ss, char *buf, size_t size)
{
	char addr[INET6_ADDRSTRLEN] = "?";
	bool v6 = ss->ss_family == AF_INET6;
	const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

	inet_ntop(ss->ss_family, v6 ? (const void *)&in6->sin6_addr : &in->sin_addr, addr,
		  sizeof(addr));
	snprintf(buf, size, "%s%s%s:%u", v6 ? "[" : "", addr, v6 ? "]" : "",
		 ntohs(v6 ? in6->sin6_port : in->sin_port));
	return buf;
}

/* 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104: reached from this machine alone */
bool loopback(const struct sockaddr_storage *ss)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;

	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr) >> 24) == 127;
	return IN6_IS_ADDR_LOOPBACK(a6) || (IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127);
}

/* The listening socket, bound at start so that a port in use is an error at once (and
 * never shared: SO_REUSEADDR alone, which lets a restart bind while old connections are in
 * TIME_WAIT but refuses a second listener); -1 with err set on a failure */
int serve_listen(const struct sockaddr_storage *ss, char *err, size_t errlen)
{
	char addr[INET6_ADDRSTRLEN + 16];
	bool v6 = ss->ss_family == AF_INET6;
	int one = 1, fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t len = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);

	if (fd >= 0 && !setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) &&
	    !bind(fd, (const struct sockaddr *)ss, len) && !listen(fd, SOMAXCONN))
		return fd;
	snprintf(err, errlen, "--serve: cannot listen on %s: %s", addr_text(ss, addr, sizeof(addr)),
		 strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Starts the server on its own thread over the listening socket fd (the daemon's then);
 * the stop signals stay with the main thread */
struct MHD_Daemon *serve_start(struct server *sv, int fd, char *err, size_t errlen)
{
	sigset_t block, old;

	sv->page = fixed(page, "text/html; charset=utf-8");
	sv->not_found = fixed("not found: the metrics are at /metrics\n", "text/plain");
	sv->not_allowed = fixed("only GET and HEAD\n", "text/plain");
	MHD_add_response_header(sv->not_allowed, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	/* its WWW-Authenticate added once: MHD_queue_basic_auth_fail_response would add one
	 * to the shared response at each refusal */
	sv->unauthorized = fixed("unauthorized: a user and password are needed\n", "text/plain");
	MHD_add_response_header(sv->unauthorized, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
				"Basic realm=\"memtop\"");
	sv->busy = fixed("busy: too many passwords to check at once, try again\n", "text/plain");
	MHD_add_response_header(sv->busy, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	bool tls = sv->web && sv->web->cert;
	struct MHD_OptionItem tls_ops[] = {
		{tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, tls ? sv->web->key : NULL},
		{MHD_OPTION_HTTPS_MEM_CERT, 0, tls ? sv->web->cert : NULL},
		{MHD_OPTION_END, 0, NULL}};
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	errno = 0;
	struct MHD_Daemon *d = NULL;
	/* the limits are the accept policy's: libmicrohttpd's own would refuse the newcomer */
	if (sv->web && sv->web->nusers && !(sv->auth = auth_pool_start(sv->web)))
		snprintf(err, errlen, "--serve: cannot start the password checks");
	else if ((sv->deadline = deadline_start(SERVE_REQUEST_S, SERVE_CONNECTIONS, SERVE_PER_IP)))
		d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
					     (tls ? MHD_USE_TLS : 0),
				     0, deadline_accept, sv->deadline, answering, sv,
				     MHD_OPTION_ARRAY, tls_ops, MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_CONNECTION_LIMIT, deadline_capacity(sv->deadline),
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT_S,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONN_MEMORY,
				     MHD_OPTION_NOTIFY_CONNECTION, deadline_notify, sv->deadline,
				     MHD_OPTION_NOTIFY_COMPLETED, completed, sv, MHD_OPTION_END);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d && !(sv->web && sv->web->nusers && !sv->auth))
		snprintf(err, errlen, "--serve: cannot start the server%s%s", e ? ": " : "",
			 e ? strerror(e) : "");
	return d;
}

void serve_stop(struct server *sv, struct MHD_Daemon *d)
{
	auth_pool_stop(sv->auth); /* every suspended connection resumed */
	if (d)
		MHD_stop_daemon(d); /* closes every connection: their answers are released */
	auth_pool_free(sv->auth);
	sv->auth = NULL;
	deadline_stop(sv->deadline);
	sv->deadline = NULL;
	struct MHD_Response *fixed[] = {sv->page, sv->not_found, sv->not_allowed, sv->unauthorized,
					sv->busy};
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (fixed[i])
			MHD_destroy_response(fixed[i]);
	if (sv->cur)
		expo_put(sv, sv->cur);
	sv->cur = NULL;
}

/* The refresh's exposition in both formats, in place of the last one */
void publish(struct server *sv, struct tbuf *b, const struct model *m, struct view_info *vi,
	     double refresh_s)
{
	struct expo *e = xcalloc(1, sizeof(*e));
	struct export_stats stats;

	pthread_mutex_lock(&sv->lock);
	sv->stats.refresh_s = refresh_s;
	stats = sv->stats;
	pthread_mutex_unlock(&sv->lock);
	vi->stats = &stats;

	for (int f = 0; f < 2; f++) {
		b->n = 0;
		view_openmetrics(b, m, vi, f);
		e->text[f] = xmalloc(b->n);
		memcpy(e->text[f], b->s, b->n);
		e->len[f] = b->n;
	}
	vi->stats = NULL;
	e->refs = 1; /* the server's */
	pthread_mutex_lock(&sv->lock);
	struct expo *old = sv->cur;
	sv->cur = e;
	pthread_mutex_unlock(&sv->lock);
	if (old)
		expo_put(sv, old);
}
