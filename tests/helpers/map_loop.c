/* map_loop ITER PAGES [PER_S]
 * A second thread maps PAGES fresh anonymous pages, touches each and unmaps them, ITER
 * times (0: until killed), one mmap and one munmap call an iteration; with PER_S, at most
 * PER_S iterations a second (kept to the clock every 100), so that the run lasts as long
 * on a fast machine as on a slow one. Prints "ready PID TID" (TID: the looping thread)
 * and waits for a line on stdin before it starts; after ITER iterations prints "done
 * ITER" and exits at the end of stdin. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long iter, pages, per_s;
static pthread_barrier_t started, go;

static void *loop(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);

	(void)arg;
	printf("ready %d %ld\n", (int)getpid(), (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_barrier_wait(&started);
	pthread_barrier_wait(&go);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; !iter || i < iter; i++) {
		if (per_s && i && i % 100 == 0) { /* ahead of PER_S: sleeps until it is due */
			double due = (double)i / (double)per_s, at;
			clock_gettime(CLOCK_MONOTONIC, &t);
			at = (double)(t.tv_sec - t0.tv_sec) +
			     (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
			if (due > at)
				usleep((useconds_t)((due - at) * 1e6));
		}
		volatile char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("map_loop: mmap");
			exit(1);
		}
		for (long j = 0; j < pages; j++)
			p[j * page] = 1;
		munmap((void *)p, (size_t)(pages * page));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char line[64];
	pthread_t t;

	if (argc < 3 || (iter = strtol(argv[1], NULL, 10)) < 0 ||
	    (pages = strtol(argv[2], NULL, 10)) < 1 ||
	    (argc > 3 && (per_s = strtol(argv[3], NULL, 10)) < 1)) {
		fprintf(stderr, "usage: map_loop ITER PAGES [PER_S]\n");
		return 2;
	}
	pthread_barrier_init(&started, NULL, 2);
	pthread_barrier_init(&go, NULL, 2);
	if (pthread_create(&t, NULL, loop, NULL)) {
		perror("map_loop");
		return 1;
	}
	pthread_barrier_wait(&started);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	pthread_barrier_wait(&go);
	pthread_join(t, NULL);
	printf("done %ld\n", iter);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
