/* ui/graph.c: scaling, dot placement, resampling, labels and the ASCII fallback, read from
 * the grid a graph renders into */
#include <math.h>
#include <string.h>

#include "graph.h"
#include "graph_axes.h"
#include "unit.h"

static void dot_rows(void **state)
{
	(void)state;
	assert_int_equal(graph_dot_row(0, 100, 40), 0);
	assert_int_equal(graph_dot_row(100, 100, 40), 39);
	assert_int_equal(graph_dot_row(50, 100, 41), 20);
	assert_int_equal(graph_dot_row(200, 100, 40), 39); /* above the scale: the top */
	assert_int_equal(graph_dot_row(-5, 100, 40), 0);
	assert_int_equal(graph_dot_row(NAN, 100, 40), -1);
	assert_int_equal(graph_dot_row(5, 0, 40), 0); /* no scale: the bottom */
}

static void braille(void **state)
{
	(void)state;
	char c[4];
	graph_braille(0, c);
	assert_string_equal(c, "\xe2\xa0\x80"); /* U+2800 */
	graph_braille(0xff, c);
	assert_string_equal(c, "\xe2\xa3\xbf"); /* U+28FF */
	/* Unicode's numbering: dots 1-3 down the left, 4-6 down the right, then 7 and 8 */
	assert_int_equal(graph_braille_bit(0, 0), 0x01);
	assert_int_equal(graph_braille_bit(0, 2), 0x04);
	assert_int_equal(graph_braille_bit(1, 0), 0x08);
	assert_int_equal(graph_braille_bit(0, 3), 0x40);
	assert_int_equal(graph_braille_bit(1, 3), 0x80);
}

static void resample(void **state)
{
	(void)state;
	const double v[6] = {1, 5, 2, NAN, 3, 0};
	double out[3], wide[11];
	graph_resample(v, 6, out, 3); /* two values a column: their peak */
	assert_true(out[0] == 5 && out[1] == 2 && out[2] == 3);
	const double two[2] = {7, 9};
	graph_resample(two, 2, wide, 11); /* fewer values than columns: the nearest */
	assert_true(wide[0] == 7 && wide[4] == 7 && wide[6] == 9 && wide[10] == 9);
	assert_true(graph_peak(v, 6) == 5);
	const double none[2] = {NAN, NAN};
	assert_true(graph_peak(none, 2) == 0);
}

static void labels(void **state)
{
	(void)state;
	char b[16];
	graph_ago(45, b, sizeof(b));
	assert_string_equal(b, "-45s");
	graph_ago(100, b, sizeof(b));
	assert_string_equal(b, "-1m40s");
	graph_ago(600, b, sizeof(b));
	assert_string_equal(b, "-10m");
	graph_ago(3600, b, sizeof(b));
	assert_string_equal(b, "-1h");
	graph_value(24.0 * 1024 * 1024, GU_KB, b, sizeof(b));
	assert_string_equal(b, "24G");
	graph_value(0.25, GU_AVG, b, sizeof(b));
	assert_string_equal(b, "0.25");
	graph_value(NAN, GU_RATE, b, sizeof(b));
	assert_string_equal(b, "-");
}

/* A rising line in a 26x7 graph: one legend line, 5 plot rows, the time axis */
static void render(struct graph_grid *grid, bool utf8, const double *v, size_t n, double ref)
{
	struct graph g = {.title = "Mem", .ns = 1, .n = n, .ref = ref, .window = 600};
	g.s[0] = (struct graph_series){.name = "used", .v = v, .role = ROLE_GRAPH1};
	g.unit[0] = GU_KB;
	graph_grid_init(grid, 26, 7, utf8);
	graph_render(&g, grid);
}

static void ascii_graph(void **state)
{
	(void)state;
	double v[20];
	char row[256];
	struct graph_grid grid;
	for (int i = 0; i < 20; i++)
		v[i] = i < 10 ? NAN : 1024.0 * 1024 * (i - 10) / 9; /* 0 .. 1G, second half */
	assert_int_equal(graph_points(26, false), 20);
	render(&grid, false, v, 20, 0);
	graph_row_text(&grid, 0, row, sizeof(row));
	assert_string_equal(row, "Mem * used 1.0G           ");
	graph_row_text(&grid, 1, row, sizeof(row)); /* the top: 1G and a little, rounded up */
	assert_string_equal(row, " 1.5G|                    ");
	graph_row_text(&grid, 2, row, sizeof(row));
	assert_string_equal(row, "     |                   *");
	graph_row_text(&grid, 3, row, sizeof(row));
	assert_string_equal(row, " 768M|                *** ");
	graph_row_text(&grid, 5, row, sizeof(row));
	assert_string_equal(row, "    0|          **        "); /* NAN: nothing */
	graph_row_text(&grid, 6, row, sizeof(row));
	assert_string_equal(row, "      -10m     -5m     now");
	assert_int_equal(graph_at(&grid, 5, 16)->role, ROLE_GRAPH1);
	assert_int_equal(graph_at(&grid, 1, 2)->role, ROLE_GRAPH_AXIS);
	for (int y = 0; y < grid.h; y++) {
		graph_row_text(&grid, y, row, sizeof(row));
		for (const char *p = row; *p; p++)
			assert_true((unsigned char)*p < 0x80);
	}
	graph_grid_free(&grid);

	/* a reference (RAM) between the peak and that top: the top, dotted */
	render(&grid, false, v, 20, 1.2 * 1024 * 1024);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " 1.2G|- - - - - - - - - - ");
	graph_row_text(&grid, 2, row, sizeof(row));
	assert_string_equal(row, "     |                 ***");
	graph_grid_free(&grid);

	/* one far above the data: not drawn; one within the scale: dotted, labelled */
	render(&grid, false, v, 20, 24.0 * 1024 * 1024);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " 1.5G|                    ");
	graph_grid_free(&grid);
	for (int i = 0; i < 20; i++)
		v[i] = 3.0 * 1024 * 1024; /* 3G flat: top 4G */
	render(&grid, false, v, 20, 1.0 * 1024 * 1024);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " 4.0G|                    ");
	graph_row_text(&grid, 4, row, sizeof(row));
	assert_string_equal(row, " 1.0G|- - - - - - - - - - ");
	graph_grid_free(&grid);
}

static void braille_graph(void **state)
{
	(void)state;
	double v[40];
	char row[256];
	struct graph_grid grid;
	for (int i = 0; i < 40; i++)
		v[i] = i; /* 0 .. 39 over 20 dots high: a dot row each two values */
	assert_int_equal(graph_points(26, true), 40);
	render(&grid, true, v, 40, 0);
	/* the scale's top 50K (39K and a little, rounded up); the first cell: values 0 and
	 * 1, both on the bottom dot row (1 / 50 * 19 rounds down): dots 7 and 8 */
	const struct graph_cell *c = graph_at(&grid, 5, GRAPH_YLABEL_W);
	assert_string_equal(c->ch, "\xe2\xa3\x80"); /* U+28C0 */
	/* the right cell holds the highest value, on dot row 39 / 50 * 19 = 15 (rounded):
	 * the fourth row of cells from the bottom, its top right dot */
	c = graph_at(&grid, 2, 25);
	assert_int_equal((unsigned char)c->ch[0], 0xe2);
	unsigned bits = ((unsigned)c->ch[1] & 0x3) << 6 | ((unsigned)c->ch[2] & 0x3f);
	assert_true(bits & graph_braille_bit(1, 0));
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_memory_equal(row, "  50K\xe2\x94\x82", 8); /* "  50K│" */
	graph_grid_free(&grid);
}

/* Own scales: each series to its own peak, given in the legend; the axis says "peak" */
static void own_scale(void **state)
{
	(void)state;
	double a[20], b[20];
	char row[256];
	for (int i = 0; i < 20; i++) {
		a[i] = 1000.0 * i;
		b[i] = 0.5;
	}
	struct graph g = {
		.title = "VM", .ns = 2, .n = 20, .own_scale = true, .window = 60, .end = "kill"};
	g.s[0] = (struct graph_series){.name = "faults/s", .v = a, .role = ROLE_GRAPH1};
	g.s[1] = (struct graph_series){.name = "PSI", .v = b, .role = ROLE_GRAPH2};
	g.unit[0] = GU_RATE;
	g.unit[1] = GU_AVG;
	struct graph_grid grid;
	graph_grid_init(&grid, 40, 8, false);
	graph_render(&g, &grid);
	graph_row_text(&grid, 0, row, sizeof(row));
	assert_string_equal(row, "VM * faults/s 19000 peak 19000          ");
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, "+ PSI 0.50 peak 0.50                    ");
	graph_row_text(&grid, 2, row, sizeof(row));
	assert_string_equal(row,
			    " peak|++++++++++++++++++++++++++++++++++"); /* a flat line at its peak,
									    drawn over the first */
	graph_row_text(&grid, 6, row, sizeof(row));
	assert_string_equal(row, "    0|*****                             ");
	graph_row_text(&grid, 7, row, sizeof(row));
	assert_string_equal(row, "      -60s           -30s           kill");
	graph_grid_free(&grid);

	/* narrower: the peaks left out of the legend, then the values, never onto the plot */
	graph_grid_init(&grid, 27, 8, false);
	graph_render(&g, &grid);
	graph_row_text(&grid, 0, row, sizeof(row));
	assert_string_equal(row, "VM * faults/s 19000        ");
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, "+ PSI 0.50                 ");
	graph_row_text(&grid, 2, row, sizeof(row));
	assert_string_equal(row, " peak|+++++++++++++++++++++");
	graph_grid_free(&grid);
	graph_grid_init(&grid, 14, 8, false);
	graph_render(&g, &grid);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, "+ PSI         ");
	graph_row_text(&grid, 7, row, sizeof(row)); /* no room for a mark */
	assert_string_equal(row, "          kill");
	graph_grid_free(&grid);
	/* one line kept for it: the entries that do not fit left out; two: the plot below */
	g.legend_lines = 1;
	graph_grid_init(&grid, 14, 8, false);
	graph_render(&g, &grid);
	graph_row_text(&grid, 0, row, sizeof(row));
	assert_string_equal(row, "VM * faults/s ");
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " peak|++++++++");
	graph_grid_free(&grid);
	g.ns = 1;
	g.legend_lines = 2;
	graph_grid_init(&grid, 40, 8, false);
	graph_render(&g, &grid);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, "                                        ");
	graph_row_text(&grid, 2, row, sizeof(row));
	assert_memory_equal(row, " peak|", 6);
	graph_grid_free(&grid);
}

/* The scale's top: just above the peak, round in the unit the axis writes it in */
static void nice_tops(void **state)
{
	(void)state;
	const double M = 1024, G = 1024 * 1024;
	char b[16];
	assert_true(graph_nice_top(400 * M, GU_KB) == 500 * M);
	assert_true(graph_nice_top(1 * G, GU_KB) == 1.5 * G);
	assert_true(graph_nice_top(3 * G, GU_KB) == 4 * G);
	assert_true(graph_nice_top(23 * G, GU_KB) == 25 * G);
	assert_true(graph_nice_top(900 * M, GU_KB) == 1 * G); /* not "1000M" */
	assert_true(graph_nice_top(960 * M, GU_KB) == 1 * G);
	assert_true(graph_nice_top(0.2, GU_KB) == 1);
	assert_true(graph_nice_top(0, GU_KB) == 0);
	assert_true(graph_nice_top(NAN, GU_KB) == 0);
	assert_true(fabs(graph_nice_top(0.5, GU_AVG) - 0.6) < 1e-12);
	assert_true(graph_nice_top(1900, GU_RATE) == 2000);
	/* from 1K to 100T: at or above the peak with its headroom, under 2.5 times it, and
	 * written with at most two figures */
	for (double kb = 1; kb < 100 * 1024 * G; kb *= 1.013) {
		double top = graph_nice_top(kb, GU_KB);
		assert_true(top >= kb * GRAPH_HEADROOM * (1 - 1e-9));
		assert_true(top < 2.5 * kb);
		graph_value(top, GU_KB, b, sizeof(b));
		size_t digits = strspn(b, "0123456789."), n = strlen(b);
		if (!(n == digits + 1 && digits <= 3))
			fail_msg("peak %.0fK: top %s", kb, b);
		assert_true(digits < 3 || b[1] == '.' || b[2] == '0');
	}
}

/* The time axis: a round step for the window and the width, marks at their true places */
static void time_marks(void **state)
{
	(void)state;
	char b[16];
	assert_true(graph_mark_step(60, 74) == 30);
	assert_true(graph_mark_step(600, 74) == 300);
	assert_true(graph_mark_step(3600, 74) == 1800);
	assert_true(graph_mark_step(53, 53) == 30);
	assert_true(graph_mark_step(60, 114) == 15);
	assert_true(graph_mark_step(106, 53) == 60);
	graph_mark(60, 30, b, sizeof(b));
	assert_string_equal(b, "-60s");
	graph_mark(600, 300, b, sizeof(b));
	assert_string_equal(b, "-10m");
	graph_mark(300, 300, b, sizeof(b));
	assert_string_equal(b, "-5m");
	graph_mark(3600, 1800, b, sizeof(b));
	assert_string_equal(b, "-1h");
	graph_mark(1800, 1800, b, sizeof(b));
	assert_string_equal(b, "-30m");
	graph_mark(5400, 1800, b, sizeof(b));
	assert_string_equal(b, "-90m");

	double v[148];
	char row[256];
	struct graph_grid grid;
	for (int i = 0; i < 148; i++)
		v[i] = i;
	struct graph g = {.title = "Mem", .ns = 1, .n = 148, .window = 3600};
	g.s[0] = (struct graph_series){.name = "used", .v = v, .role = ROLE_GRAPH1};
	g.unit[0] = GU_KB;
	graph_grid_init(&grid, 80, 6, true);
	graph_render(&g, &grid);
	graph_row_text(&grid, 5, row, sizeof(row));
	/* -1h at the left, now at the right, -30m centred on the middle of the plot's 74
	 * columns (6 + 73 / 2) */
	char *mid = strstr(row, " -30m ");
	assert_non_null(mid);
	assert_true(fabs((double)(mid + 1 - row) + 1.5 - (6 + 73 / 2.0)) <= 1);
	assert_memory_equal(row, "      -1h ", 10);
	assert_int_equal(strlen(row), 80);
	assert_string_equal(row + 77, "now");
	graph_grid_free(&grid);
	g.window = 106; /* the width's window of -d 0.5 */
	graph_grid_init(&grid, 59, 6, true);
	graph_render(&g, &grid);
	graph_row_text(&grid, 5, row, sizeof(row));
	/* -1m at 60 / 106 of the 53 columns from the right */
	assert_string_equal(row, "                            -1m                         now");
	graph_grid_free(&grid);
}

UNIT_GROUP(graph)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dot_rows),    cmocka_unit_test(braille),
		cmocka_unit_test(resample),    cmocka_unit_test(labels),
		cmocka_unit_test(ascii_graph), cmocka_unit_test(braille_graph),
		cmocka_unit_test(own_scale),   cmocka_unit_test(nice_tops),
		cmocka_unit_test(time_marks),
	};
	return cmocka_run_group_tests_name("graph", tests, NULL, NULL);
}
