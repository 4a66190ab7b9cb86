/* proc_table: one line per process in /proc, read from its own files, for the walk tests
 * (tests/cli/walk_check.inc): pid, starttime, ppid, flags, minflt, majflt (stat fields 1,
 * 22, 4, 9, 10, 12; the comm, which may hold spaces, parentheses and newlines, skipped
 * up to its last ')'), statm's seven numbers joined by commas, the effective uid
 * (status, Uid's second field), and its threads' time on a CPU and times run summed
 * ("NS,COUNT" from each /proc/PID/task/TID/schedstat; "-" where the kernel has none): a
 * process whose two did not change between two tables did not run between them, so
 * could not have changed its mappings, even and back. A process that goes while it is
 * read is left out (awk would stop at the read error of its files). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FILE of /proc/PID into buf, NUL-terminated: its length, or -1 */
static ssize_t slurp(const char *pid, const char *file, char *buf, size_t len)
{
	char path[64];
	ssize_t n, got = 0;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	if (n < 0 || !got)
		return -1;
	buf[got] = '\0';
	return got;
}

/* Its threads' schedstat summed into buf: "NS,COUNT", else "-" */
static void ran(const char *pid, char *buf, size_t len)
{
	char dir[64], file[300], line[128];
	unsigned long long ns = 0, count = 0, a, b, c;
	struct dirent *e;
	int n = 0;

	snprintf(buf, len, "-");
	snprintf(dir, sizeof(dir), "/proc/%s/task", pid);
	DIR *d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(file, sizeof(file), "task/%s/schedstat", e->d_name);
		if (slurp(pid, file, line, sizeof(line)) < 0 ||
		    sscanf(line, "%llu %llu %llu", &a, &b, &c) != 3)
			continue;
		ns += a;
		count += c;
		n++;
	}
	closedir(d);
	if (n)
		snprintf(buf, len, "%llu,%llu", ns, count);
}

static void one(const char *pid)
{
	char stat[4096], statm[256], status[8192], *p, *f[64];
	unsigned long uid[2];
	int k = 0;

	if (slurp(pid, "stat", stat, sizeof(stat)) < 0 || !(p = strrchr(stat, ')')) ||
	    slurp(pid, "statm", statm, sizeof(statm)) < 0 ||
	    slurp(pid, "status", status, sizeof(status)) < 0)
		return;
	for (p = strtok(p + 1, " \n"); p && k < 64; p = strtok(NULL, " \n"))
		f[k++] = p; /* f[i] is field i + 3 */
	char *u = strstr(status, "\nUid:");
	if (k < 20 || !u || sscanf(u + 5, "%lu %lu", &uid[0], &uid[1]) != 2)
		return;
	statm[strcspn(statm, "\n")] = '\0';
	for (p = statm; *p; p++)
		if (*p == ' ')
			*p = ',';
	char run[64];
	ran(pid, run, sizeof(run));
	printf("%s %s %s %s %s %s %s %lu %s\n", pid, f[19], f[1], f[6], f[7], f[9], statm, uid[1],
	       run);
}

int main(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d) {
		perror("proc_table: /proc");
		return 1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    strspn(e->d_name, "0123456789") == strlen(e->d_name))
			one(e->d_name);
	closedir(d);
	return fflush(stdout) ? 1 : 0;
}
