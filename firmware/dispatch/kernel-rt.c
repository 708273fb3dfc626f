/*
 * State every tt-run kernel links in (kernel.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "kernel.h"

KNocState knoc;
