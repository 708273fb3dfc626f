#include "qemu/osdep.h"
int main(void){return 0;}
