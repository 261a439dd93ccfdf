/** PSP adapters, recovery policy files and channel health: the I/O edge of the channel layer. */
package dev.clearway.psp;
