#include "bpf_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int print_stderr(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

bool bpf_debug_env(void)
{
	const char *v = getenv("MEMTOP_DEBUG");

	return v && v[0] && strcmp(v, "0");
}

void bpf_log_loading(bool verbose)
{
	libbpf_set_print(verbose || bpf_debug_env() ? print_stderr : quiet);
}

void bpf_log_quiet(void)
{
	libbpf_set_print(quiet);
}
