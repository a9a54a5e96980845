RatedSource(abc, BANDWIDTH 1000) -> ToDevice(0);
