// The float game on detmath.js: the same bits in every engine.
import * as dm from "./detmath.js";
import { floatGame } from "./floatgame.js";

export default floatGame(dm);
