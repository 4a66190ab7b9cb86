/* slow_client ADDR PORT N SECS: opens N connections to ADDR:PORT (IPv4) and sends on each
 * one byte of an HTTP request a second for SECS seconds, a header line that never ends;
 * prints "ready N" once they are open, then, at the end, "closed C of N": how many the
 * server closed (end of file, a reset, or a send refused) while they were still sending. */
#include <arpa/inet.h>
#include <errno.h>
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

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: slow_client ADDR PORT N SECS\n");
		return 2;
	}
	int n = atoi(argv[3]), secs = atoi(argv[4]), closed = 0;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};
	int *fd = calloc((size_t)n, sizeof(*fd));
	size_t sent = 0;

	if (!fd || inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1)
		return 2;
	for (int i = 0; i < n; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (fd[i] < 0 || connect(fd[i], (struct sockaddr *)&sa, sizeof(sa))) {
			perror("connect");
			return 1;
		}
	}
	printf("ready %d\n", n);
	fflush(stdout);
	for (int t = 0; t < secs && closed < n; t++, sent++) {
		char c = sent < sizeof(request) - 1 ? request[sent] : 'a';
		for (int i = 0; i < n; i++) {
			if (fd[i] < 0)
				continue;
			struct pollfd p = {.fd = fd[i], .events = POLLIN};
			char buf[256];
			bool gone = poll(&p, 1, 0) > 0 &&
				    (p.revents & (POLLHUP | POLLERR) ||
				     recv(fd[i], buf, sizeof(buf), MSG_DONTWAIT) <= 0);
			if (gone || send(fd[i], &c, 1, MSG_NOSIGNAL) != 1) {
				close(fd[i]);
				fd[i] = -1;
				closed++;
			}
		}
		sleep(1);
	}
	printf("closed %d of %d\n", closed, n);
	return 0;
}
