/* What the CPU and the device share about a strategy's trades (EV_HD): a
 * trade's outcome in percent of its entry price (costs included), the value
 * signals/strategy.h's fitness quantises. One definition for the host's
 * `outcomes` (signals/strategy_entry.h) and the device's backtest kernel
 * (kernels/strategy_device.cu), so both hand the same doubles to the one
 * host fitness function. */
#ifndef EVOLVE_SIGNALS_STRATEGY_HD_H
#define EVOLVE_SIGNALS_STRATEGY_HD_H

#include "common/hd.h"

EV_HD double strategy_trade_pct(double pnl, double entry)
{
    return pnl / entry * 100.0;
}

#endif
