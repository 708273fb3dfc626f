// SPDX-License-Identifier: GPL-2.0-or-later
//
// Every chip of a multi-chip libttsim library opened by tt-umd itself, as
// tt-metal opens a simulated cluster (ChipType::SIMULATION, the directory
// holding libttsim.so and its descriptors): tt-umd's own api_tests open
// chip 0 only (tests/test_utils/device_test_utils.hpp sets
// target_devices = {0}).  Built by umd-cluster.sh against the user's
// tt-umd build; prints TAP.
//
//   umd-cluster LIB CHIPS
//
// Checks: tt-umd finds CHIPS chips, the cluster descriptor's links, and
// per chip a Tensix core's L1 and an Ethernet core's base-firmware port
// status through tt-umd's own read/write path; a word written to every
// chip reads back per chip (chips are distinct devices, not one).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "umd/device/cluster.hpp"

using namespace tt::umd;
using tt::ChipId;
using tt::CoreType;

static int n_checks, n_failed;

static bool check(bool ok, const std::string &what)
{
    n_checks++;
    n_failed += !ok;
    std::printf("%sok %d - %s\n", ok ? "" : "not ", n_checks, what.c_str());
    std::fflush(stdout);
    return ok;
}

// An L1 word no firmware of ours uses (Tensix user L1)
static const uint64_t L1_WORD = 0x100000;
// The base firmware's port status in an Ethernet tile's L1 (tt-metal
// eth_fw_api.h boot_results_t.eth_status.port_status)
static const uint64_t ETH_PORT_STATUS = 0x7cc04;

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: umd-cluster LIB CHIPS\n");
        return 2;
    }
    const size_t want = std::strtoul(argv[2], nullptr, 0);
    std::unique_ptr<Cluster> cluster;

    try {
        ClusterOptions o;

        o.chip_type = ChipType::SIMULATION;
        o.simulator_directory = argv[1];
        o.num_host_mem_ch_per_mmio_device = 0;
        cluster = std::make_unique<Cluster>(o);
    } catch (const std::exception &e) {
        check(false, std::string("tt-umd opens the cluster: ") + e.what());
        std::printf("1..%d\n", n_checks);
        return 1;
    }
    std::set<ChipId> chips = cluster->get_target_device_ids();
    check(chips.size() == want, "tt-umd opens " + std::to_string(want) +
          " chips (got " + std::to_string(chips.size()) + ")");

    size_t links = 0;
    for (const auto &c : cluster->get_cluster_description()
                             ->get_ethernet_connections()) {
        links += c.second.size();
    }
    check(links > 0 && links % 2 == 0,
          "the cluster descriptor's links, each listed from both ends (" +
          std::to_string(links / 2) + " links)");

    // a word per chip, then each read back: every chip its own device
    bool distinct = true, eth_ok = true;
    int eth_up = 0;
    for (ChipId c : chips) {
        const SocDescriptor &sd = cluster->get_soc_descriptor(c);
        CoreCoord t = sd.get_cores(CoreType::TENSIX)[0];
        uint32_t v = 0x5eed0000u + c;

        cluster->write_to_device(&v, sizeof(v), c, t, L1_WORD);
    }
    for (ChipId c : chips) {
        const SocDescriptor &sd = cluster->get_soc_descriptor(c);
        CoreCoord t = sd.get_cores(CoreType::TENSIX)[0];
        uint32_t v = 0;

        cluster->read_from_device(&v, c, t, L1_WORD, sizeof(v));
        distinct &= v == 0x5eed0000u + c;
        for (const CoreCoord &e : sd.get_cores(CoreType::ETH)) {
            uint32_t st = 0;

            cluster->read_from_device(&st, c, e, ETH_PORT_STATUS,
                                      sizeof(st));
            eth_ok &= st >= 1 && st <= 3;   // up, down or unused
            eth_up += st == 1;
        }
    }
    check(distinct, "a word written to a Tensix core of every chip reads "
          "back per chip");
    check(eth_ok, "every Ethernet core's base-firmware port status reads "
          "up, down or unused through tt-umd");
    check(eth_up > 0 && static_cast<size_t>(eth_up) == links,
          "as many channels up as the descriptor has link ends (" +
          std::to_string(eth_up) + ")");
    cluster.reset();
    check(true, "tt-umd closes the cluster");
    std::printf("1..%d\n", n_checks);
    return n_failed ? 1 : 0;
}
