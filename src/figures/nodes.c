#include "nodes.h"

const struct node_figure node_figures[NF_COUNT] = {
#define NODE_ROW(a, id, key, json, metric, label, help)                                            \
	[NF_##id] = {key, #json, metric, label, help},
	NODE_FIGURES(NODE_ROW, 0)
#undef NODE_ROW
};
