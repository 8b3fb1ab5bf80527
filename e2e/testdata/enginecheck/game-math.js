// The float game on Math.*: desyncs across engines.
import { floatGame } from "./floatgame.js";

export default floatGame(Math);
