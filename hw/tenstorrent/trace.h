#include "trace/trace-hw_tenstorrent.h"
