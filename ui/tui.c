#include "tui.h"

#include <langinfo.h>
#include <signal.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui_int.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

void put_text(struct tui *t, int y, int x, int w, enum role r, const char *s, bool pad)
{
	if (w <= 0 || y < 0 || y >= t->rows)
		return;
	attrset(theme_attr(t->theme, r));
	move(y, x);
	int used = 0;
	if (t->utf8) {
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		const char *p = s;
		while (*p && used < w) {
			wchar_t wc;
			size_t n = mbrtowc(&wc, p, strlen(p), &st);
			if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
				break; /* callers pass escaped text; stop rather than print junk */
			int cw = wcwidth(wc);
			if (cw < 0 || used + cw > w)
				break;
			addnwstr(&wc, 1);
			used += cw;
			p += n;
		}
	} else {
		for (const char *p = s; *p && used < w; p++, used++)
			addch((unsigned char)*p < 0x80 ? (chtype)(unsigned char)*p : '?');
	}
	if (pad)
		for (; used < w; used++)
			addch(' ');
	attrset(A_NORMAL);
}

int table_rows(const struct tui *t)
{
	int n = t->rows - HEADER_ROWS - 2; /* column titles, bottom line */
	return n > 0 ? n : 0;
}

/* Keeps the selection on the same process across refreshes and re-sorts. */
void tui_select_pid(struct tui *t)
{
	const struct model *m = t->m;
	for (size_t i = 0; i < m->nrows; i++) {
		if (m->rows[i].p->pid == t->sel_pid) {
			t->sel = i;
			break;
		}
	}
	if (t->sel >= m->nrows)
		t->sel = m->nrows ? m->nrows - 1 : 0;
	size_t page = (size_t)table_rows(t);
	if (t->sel < t->top)
		t->top = t->sel;
	else if (page && t->sel >= t->top + page)
		t->top = t->sel - page + 1;
	if (m->nrows)
		t->sel_pid = m->rows[t->sel].p->pid;
}

void tui_reorder(struct tui *t)
{
	model_refilter(t->m);
	tui_select_pid(t);
}

void tui_collect(struct tui *t)
{
	char err[256];
	/* costly columns are read for the rows on screen; for all rows when the table is
	 * sorted by one of them, and on the first refresh, before any row was shown */
	struct pids_request req = {
		.cols = t->m->cols | COL_BIT(t->m->sort),
		.rows_all = t->swap_all_once || (columns[t->m->sort].needs & NEED_COSTLY),
		.row_pids = t->onscreen,
		.nrow_pids = t->nonscreen,
		.only_pids = t->m->filter.pids,
		.nonly_pids = t->m->filter.npids,
	};
	if (sources_collect(t->src, model_begin(t->m), &req, err, sizeof(err))) {
		snprintf(t->message, sizeof(t->message), "%.190s", err);
		return;
	}
	t->swap_all_once = false;
	model_update(t->m);
	tui_select_pid(t);
	t->refreshes++;
}

/* Rows that came into view since the refresh (scrolling, a search, a filter) get their
 * costly columns now, not a '-' until the next refresh. Returns whether it read any. */
static bool fill_onscreen(struct tui *t)
{
	unsigned costly = (t->m->cols | COL_BIT(t->m->sort)) & columns_with_need(NEED_COSTLY);
	int32_t missing[MAX_ONSCREEN];
	size_t n = 0;

	for (size_t i = t->top; costly && i < t->m->nrows && i - t->top < t->nonscreen; i++)
		if (costly & ~t->m->rows[i].p->tried)
			missing[n++] = t->m->rows[i].p->pid;
	if (!n)
		return false;
	struct pids_request req = {
		.cols = t->m->cols | COL_BIT(t->m->sort), .row_pids = missing, .nrow_pids = n};
	sources_fill(t->src, model_current_mut(t->m), &req);
	model_late_values(t->m);
	return true;
}

static void draw_too_small(struct tui *t)
{
	char line[80];
	erase();
	snprintf(line, sizeof(line), "Terminal too small: %dx%d", t->cols, t->rows);
	put_text(t, t->rows / 2 - 1, 0, t->cols, ROLE_WARNING, line, false);
	snprintf(line, sizeof(line), "memtop needs %dx%d", MIN_COLS, MIN_ROWS);
	put_text(t, t->rows / 2, 0, t->cols, ROLE_LABEL, line, false);
	put_text(t, t->rows / 2 + 1, 0, t->cols, ROLE_LABEL, "q quits", false);
}

static void draw(struct tui *t)
{
	getmaxyx(stdscr, t->rows, t->cols);
	if (t->rows < MIN_ROWS || t->cols < MIN_COLS) {
		draw_too_small(t);
		refresh();
		return;
	}
	erase();
	switch (t->screen) {
	case SCREEN_HELP:
		draw_help(t);
		break;
	case SCREEN_SORT:
		draw_sort_menu(t);
		break;
	case SCREEN_COLUMNS:
		draw_columns_menu(t);
		break;
	case SCREEN_OOM:
		draw_oom_pane(t);
		break;
	case SCREEN_RECLAIM:
		draw_reclaim_pane(t);
		break;
	case SCREEN_DETAIL:
		draw_detail(t);
		break;
	case SCREEN_MAIN:
		draw_header(t);
		layout_columns(t);
		draw_table(t, HEADER_ROWS);
		draw_bottom(t);
		break;
	}
	refresh();
}

static int wait_ms(const struct tui *t)
{
	if (t->paused)
		return -1;
	double left = t->next_refresh - clock_mono();
	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

int tui_run(struct sources *src, struct model *m, const struct options *o, struct theme *theme)
{
	struct tui t = {
		.src = src,
		.m = m,
		.theme = theme,
		.delay = o->delay,
		.max_refreshes = o->iterations,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
		.swap_all_once = true,
		.detail = detail_view_new(o->no_bpf),
	};
	const char *term = getenv("TERM");
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "memtop: cannot drive terminal type '%s'\n",
			term ? term : "(unset)");
		return 1;
	}
	set_term(scr);
	struct sigaction sa = {.sa_handler = on_stop};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	set_escdelay(25);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	theme_apply(theme);
	getmaxyx(stdscr, t.rows, t.cols);
	tui_collect(&t);
	t.next_refresh = clock_mono() + t.delay;
	while (!t.quit && !stop_signal) {
		draw(&t);
		if (t.screen == SCREEN_MAIN && fill_onscreen(&t))
			draw(&t);
		if (t.max_refreshes && t.refreshes >= t.max_refreshes)
			break; /* -n N: the Nth refresh was drawn */
		timeout(wait_ms(&t));
		wint_t ch;
		int rc = get_wch(&ch);
		if (rc == ERR) {
			if (!t.paused && clock_mono() >= t.next_refresh) {
				tui_collect(&t);
				if (t.screen == SCREEN_DETAIL)
					detail_refresh(&t);
				t.next_refresh += t.delay;
				if (t.next_refresh < clock_mono())
					t.next_refresh = clock_mono() + t.delay;
			}
			continue;
		}
		if (rc == KEY_CODE_YES && ch == KEY_RESIZE)
			continue; /* draw() reads the new size */
		if (t.prompt != PROMPT_NONE)
			prompt_key(&t, ch, rc == KEY_CODE_YES);
		else if (t.rows < MIN_ROWS || t.cols < MIN_COLS)
			t.quit =
				(ch == 'q' || ch == 'Q' || (rc == KEY_CODE_YES && ch == KEY_F(10)));
		else if (t.screen == SCREEN_SORT)
			sort_menu_key(&t, rc == KEY_CODE_YES ? (int)ch : (int)ch);
		else if (t.screen == SCREEN_COLUMNS)
			columns_menu_key(&t,
					 rc == KEY_CODE_YES ? (int)ch : (ch < 0x100 ? (int)ch : 0));
		else if (t.screen == SCREEN_HELP)
			help_key(&t, rc == KEY_CODE_YES ? (int)ch : (ch < 0x100 ? (int)ch : 0));
		else if (t.screen == SCREEN_DETAIL)
			detail_key(&t, rc == KEY_CODE_YES ? (int)ch : (ch < 0x100 ? (int)ch : 0));
		else if (t.screen == SCREEN_OOM || t.screen == SCREEN_RECLAIM)
			pane_key(&t, rc == KEY_CODE_YES ? (int)ch : (ch < 0x100 ? (int)ch : 0));
		else
			handle_key(&t, rc == KEY_CODE_YES ? (int)ch : (ch < 0x100 ? (int)ch : 0));
	}
	detail_view_free(t.detail);
	endwin();
	delscreen(scr);
	return stop_signal ? 128 + stop_signal : 0;
}
