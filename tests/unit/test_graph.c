/* ui/graph.c: scaling, dot placement, resampling, labels and the ASCII fallback, read from
 * the grid a graph renders into */
#include <math.h>
#include <string.h>

#include "graph.h"
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
static void render(struct graph_grid *grid, bool utf8, const double *v, size_t n, double ymax)
{
	struct graph g = {.title = "Mem", .ns = 1, .n = n, .ymax = ymax, .window = 600};
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
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " 1.0G|                  **");
	graph_row_text(&grid, 3, row, sizeof(row));
	assert_memory_equal(row, " 512M|", 6);
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

	/* the axis's top at least ymax: 2G, the line half way up */
	render(&grid, false, v, 20, 2.0 * 1024 * 1024);
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_string_equal(row, " 2.0G|                    ");
	graph_row_text(&grid, 3, row, sizeof(row));
	assert_string_equal(row, " 1.0G|                 ***");
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
	/* the first cell: values 0 and 1, both on the bottom dot row (1 / 39 * 19 rounds
	 * down): dots 7 and 8 */
	const struct graph_cell *c = graph_at(&grid, 5, GRAPH_YLABEL_W);
	assert_string_equal(c->ch, "\xe2\xa3\x80"); /* U+28C0 */
	/* the top right cell holds the highest value, top right dot */
	c = graph_at(&grid, 1, 25);
	assert_int_equal((unsigned char)c->ch[0], 0xe2);
	unsigned bits = ((unsigned)c->ch[1] & 0x3) << 6 | ((unsigned)c->ch[2] & 0x3f);
	assert_true(bits & graph_braille_bit(1, 0));
	graph_row_text(&grid, 1, row, sizeof(row));
	assert_memory_equal(row, "  39K\xe2\x94\x82", 8); /* "  39K│" */
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
	assert_string_equal(row, "      -1m            -30s           kill");
	graph_grid_free(&grid);
}

int run_graph_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dot_rows),    cmocka_unit_test(braille),
		cmocka_unit_test(resample),    cmocka_unit_test(labels),
		cmocka_unit_test(ascii_graph), cmocka_unit_test(braille_graph),
		cmocka_unit_test(own_scale),
	};
	return cmocka_run_group_tests_name("graph", tests, NULL, NULL);
}
