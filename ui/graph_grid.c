/* The grid a graph renders into and the primitives its plot and axes draw with (graph_grid.h) */
#include "graph_grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

void graph_grid_init(struct graph_grid *g, int w, int h, bool utf8)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->utf8 = utf8;
	g->cell = xcalloc((size_t)g->w * (size_t)g->h + 1, sizeof(*g->cell));
}

void graph_grid_free(struct graph_grid *g)
{
	free(g->cell);
	g->cell = NULL;
}

void graph_row_text(const struct graph_grid *g, int y, char *buf, size_t size)
{
	size_t off = 0;

	for (int x = 0; x < g->w; x++) {
		const char *c = graph_at(g, y, x)->ch[0] ? graph_at(g, y, x)->ch : " ";
		size_t n = strlen(c);
		if (off + n + 1 > size)
			break;
		memcpy(buf + off, c, n);
		off += n;
	}
	if (size)
		buf[off] = '\0';
}

int graph_dots_x(bool utf8)
{
	return utf8 ? 2 : 1;
}

int graph_dots_y(bool utf8)
{
	return utf8 ? 4 : 1;
}

size_t graph_points(int w, bool utf8)
{
	return w > GRAPH_YLABEL_W ? (size_t)(w - GRAPH_YLABEL_W) * (size_t)graph_dots_x(utf8) : 0;
}

int graph_dot_row(double v, double max, int ndots)
{
	if (isnan(v) || ndots < 1)
		return -1;
	if (max <= 0 || v <= 0)
		return 0;
	long r = lround(v / max * (ndots - 1));
	return r > ndots - 1 ? ndots - 1 : (int)r;
}

void graph_resample(const double *v, size_t n, double *out, size_t m)
{
	for (size_t j = 0; j < m; j++) {
		size_t a = j * n / m, b = (j + 1) * n / m;
		double best = NAN;

		if (n <= m) { /* no more values than columns: the nearest */
			size_t i = m > 1 ? (size_t)lround((double)j * (double)(n - 1) /
							  (double)(m - 1))
					 : n - 1;
			out[j] = n ? v[i < n ? i : n - 1] : NAN;
			continue;
		}
		for (size_t i = a; i < b && i < n; i++)
			if (!isnan(v[i]) && (isnan(best) || v[i] > best))
				best = v[i];
		out[j] = best;
	}
}

double graph_peak(const double *v, size_t n)
{
	double p = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > p)
			p = v[i];
	return p;
}

unsigned graph_braille_bit(int dx, int dy)
{
	static const unsigned bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	return bit[dx & 1][dy & 3];
}

void graph_braille(unsigned bits, char out[4])
{
	unsigned cp = 0x2800 + (bits & 0xff);

	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	out[3] = '\0';
}

void graph_ago(double secs, char *buf, size_t size)
{
	long s = lround(secs);

	if (s < 60)
		snprintf(buf, size, "-%lds", s);
	else if (s < 3600 && s % 60)
		snprintf(buf, size, "-%ldm%02lds", s / 60, s % 60);
	else if (s < 3600 || s % 3600)
		snprintf(buf, size, "-%ldm", s / 60);
	else
		snprintf(buf, size, "-%ldh", s / 3600);
}

void graph_value(double v, enum graph_unit u, char *buf, size_t size)
{
	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	switch (u) {
	case GU_KB:
		fmt_kb(v > 0 ? (uint64_t)v : 0, buf, size);
		break;
	case GU_RATE:
		fmt_rate(v, buf, size);
		break;
	case GU_AVG:
		snprintf(buf, size, "%.2f", v);
		break;
	}
}

int graph_text(struct graph_grid *g, int y, int x, enum role r, const char *s)
{
	for (; *s && x < g->w && y >= 0 && y < g->h; s++, x++) {
		struct graph_cell *c = graph_at(g, y, x);
		c->ch[0] = *s;
		c->ch[1] = '\0';
		c->role = (unsigned char)r;
	}
	return x;
}
