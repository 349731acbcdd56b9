/**
 * With the "@" prefix (systemd.service(5)) the word after the executable path
 * is argv[0]. When all that precedes a piece of an Exec*= value is "@path",
 * that piece is argv[0]: removing it or freeing it leaves the command without
 * one, which systemd refuses ("Empty executable name or zeroeth argument").
 */
export function isArgv0Piece(key: string, valueBefore: string): boolean {
  return key.startsWith('Exec') && /^[-:+!]*@\S+$/.test(valueBefore.trim());
}
