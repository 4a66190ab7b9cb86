#include "serve_auth.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct auth_job {
	struct MHD_Connection *c;
	char *user, *password;
	bool ok;
	struct auth_job *next;
};

struct auth_pool {
	pthread_mutex_t lock; /* the queue, stop */
	pthread_cond_t wake;
	struct web_config *w;
	struct auth_job *head, **tail;
	unsigned queued, threads;
	bool stop;
	pthread_t thread[AUTH_WORKERS];
};

static void job_done(struct auth_job *j, bool ok)
{
	struct MHD_Connection *c = j->c;

	explicit_bzero(j->password, strlen(j->password));
	j->ok = ok;
	MHD_resume_connection(c); /* j is the handler's from here */
}

static void *worker(void *arg)
{
	struct auth_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && !p->head)
			pthread_cond_wait(&p->wake, &p->lock);
		if (p->stop)
			break;
		struct auth_job *j = p->head;
		if (!(p->head = j->next))
			p->tail = &p->head;
		p->queued--;
		pthread_mutex_unlock(&p->lock);
		job_done(j, web_config_allows(p->w, j->user, j->password));
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct auth_pool *auth_pool_start(struct web_config *w)
{
	struct auth_pool *p = xcalloc(1, sizeof(*p));

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	p->w = w;
	p->tail = &p->head;
	while (p->threads < AUTH_WORKERS &&
	       !pthread_create(&p->thread[p->threads], NULL, worker, p))
		p->threads++;
	if (!p->threads) {
		auth_pool_free(p);
		return NULL;
	}
	return p;
}

struct auth_job *auth_pool_submit(struct auth_pool *p, struct MHD_Connection *c, const char *user,
				  const char *password)
{
	struct auth_job *j = NULL;

	pthread_mutex_lock(&p->lock);
	if (!p->stop && p->queued < AUTH_QUEUE) {
		j = xcalloc(1, sizeof(*j));
		j->c = c;
		j->user = xstrdup(user);
		j->password = xstrdup(password);
		MHD_suspend_connection(c);
		*p->tail = j;
		p->tail = &j->next;
		p->queued++;
		pthread_cond_signal(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
	return j;
}

bool auth_job_ok(const struct auth_job *j)
{
	return j->ok;
}

void auth_job_free(struct auth_job *j)
{
	if (!j)
		return;
	free(j->user);
	free(j->password);
	free(j);
}

void auth_pool_stop(struct auth_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	struct auth_job *left = p->head;
	p->head = NULL;
	p->tail = &p->head;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	while (left) {
		struct auth_job *j = left;
		left = j->next;
		job_done(j, false);
	}
	for (unsigned i = 0; i < p->threads; i++)
		pthread_join(p->thread[i], NULL);
	p->threads = 0;
}

void auth_pool_free(struct auth_pool *p)
{
	if (!p)
		return;
	auth_pool_stop(p);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
