/* idle_client ADDR PORT N: opens N connections to ADDR:PORT (IPv4) and sends nothing on
 * them; prints "ready N" once they are open (queued by the kernel or accepted), then holds
 * them until SIGTERM. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: idle_client ADDR PORT N\n");
		return 2;
	}
	int n = atoi(argv[3]);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[2]))};

	if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1)
		return 2;
	for (int i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			perror("connect");
			return 1;
		}
	}
	printf("ready %d\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
