/* The report page's classes of regions: their colours and their names in the legend. */
#include "report_model.h"

const char *const hb_report_colour[HB_RC_COUNT] = {
    "#d7263d", /* unreachable: red */
    "#7b4fc9", /* not open: violet */
    "#3d3d3d", /* another chain defect: near black */
    "#f28c28", /* hot: orange */
    "#e8c547", /* drift: yellow */
    "#3a9d5d", /* reachable: green */
};

const char *const hb_report_class_name[HB_RC_COUNT] = {
    "unreachable", "not open", "chain defect", "hot", "drift", "reachable",
};
