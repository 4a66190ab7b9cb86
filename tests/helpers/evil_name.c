/* evil_name [--bidi] [MARKER]: renames itself (comm) and re-executes itself with an argv[0]
 * that both hold terminal escape sequences, prints "ready PID" and sleeps until killed.
 * With --bidi they hold invisible Unicode instead: U+202E RIGHT-TO-LEFT OVERRIDE, which
 * shows "invoice<U+202E>gpj.exe" as "invoiceexe.jpg", and U+200B ZERO WIDTH SPACE. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define EVIL	   "\x1b[2J\x1b[31mEVIL"
#define EVIL_ARGV0 EVIL "\x1b[0m-argv"
#define RLO	   "\xe2\x80\xae"     /* U+202E */
#define ZWSP	   "\xe2\x80\x8b"     /* U+200B */
#define BIDI	   RLO "gpj.exe" ZWSP /* 13 bytes: comm holds 15 */
#define BIDI_ARGV0 "invoice" BIDI "-argv"

int main(int argc, char **argv)
{
	const char *name;

	if (!strcmp(argv[0], EVIL_ARGV0)) {
		name = EVIL;
	} else if (!strcmp(argv[0], BIDI_ARGV0)) {
		name = BIDI;
	} else {
		int bidi = argc > 1 && !strcmp(argv[1], "--bidi");
		char *args[] = {bidi ? BIDI_ARGV0 : EVIL_ARGV0,
				argc > 1 + bidi ? argv[1 + bidi] : NULL, NULL};
		execv("/proc/self/exe", args);
		perror("execv");
		return 1;
	}
	if (prctl(PR_SET_NAME, name, 0, 0, 0))
		perror("prctl");
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
