# SPDX-License-Identifier: GPL-2.0-or-later
#
# The generated Tensix headers RV32 firmware builds instruction words and
# configuration values with, from the data files the emulator decodes
# with (hw/tenstorrent/data):
#   tt-tensix-enc.h     TT_ENC_<NAME>(fields...)  gen-tensix-isa.py --encoders
#   tt-tensix-config.h  TT_CFG_/TT_THCFG_<field>  gen-tensix-config.py
#   tt-tile-map.h       TT_TILE_<region>_BASE     gen-tile-map.py
#
# Included by the firmware Makefiles after their first target, with TOP
# (the repository root) and O (the output directory) set; they add
# -I$(O) and depend on $(TT_GEN_HDRS).

PYTHON ?= python3
TT_DATA = $(TOP)/hw/tenstorrent/data
TT_GEN = $(TOP)/scripts/tenstorrent
TT_GEN_HDRS = $(O)/tt-tensix-enc.h $(O)/tt-tensix-config.h $(O)/tt-tile-map.h

$(O)/tt-tensix-enc.h: $(TT_DATA)/tensix-isa.yaml $(TT_GEN)/gen-tensix-isa.py
	@mkdir -p $(@D)
	$(PYTHON) $(TT_GEN)/gen-tensix-isa.py --encoders $< $@

$(O)/tt-tensix-config.h: $(TT_DATA)/tensix-config.yaml \
                         $(TT_GEN)/gen-tensix-config.py
	@mkdir -p $(@D)
	$(PYTHON) $(TT_GEN)/gen-tensix-config.py $< $@

$(O)/tt-tile-map.h: $(TT_DATA)/tile-map.yaml $(TT_GEN)/gen-tile-map.py
	@mkdir -p $(@D)
	$(PYTHON) $(TT_GEN)/gen-tile-map.py $< $@
