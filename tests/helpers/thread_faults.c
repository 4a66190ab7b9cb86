/* thread_faults THREADS MIB [MARKER...]
 * Starts THREADS threads that each touch MIB MiB of fresh anonymous memory; half of them
 * then exit (their faults move to the process's own count, which /proc adds up with the
 * live threads'), the rest sleep. Prints "ready PID" once all have touched their memory,
 * then sleeps until killed. Further arguments are markers to find the process. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t bytes;
static pthread_barrier_t touched;

static void *work(void *arg)
{
	long i = (long)arg;
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED)
		memset(p, 1, bytes);
	pthread_barrier_wait(&touched);
	if (i % 2)
		return NULL;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: thread_faults THREADS MIB [MARKER...]\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10);
	bytes = (size_t)strtoul(argv[2], NULL, 10) << 20;
	if (n < 1 || n > 512) {
		fprintf(stderr, "thread_faults: 1 to 512 threads\n");
		return 2;
	}
	pthread_barrier_init(&touched, NULL, (unsigned)n + 1);
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, (void *)i)) {
			perror("thread_faults");
			return 1;
		}
	pthread_barrier_wait(&touched);
	for (long i = 1; i < n; i += 2)
		pthread_join(t[i], NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
