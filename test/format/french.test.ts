import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDecimalFr, formatRateFr, ofFr } from '../../src/format/french.ts';

describe('French decimals', () => {
  it('should drop only the zeros after a decimal point, as a reader writes a quantity or a rate', () => {
    assert.equal(formatDecimalFr('1.000'), '1');
    assert.equal(formatDecimalFr('7.500'), '7,5');
    assert.equal(formatDecimalFr('0.250'), '0,25');
    assert.equal(formatDecimalFr('10'), '10');
    assert.equal(formatDecimalFr('100.00'), '100');
    assert.equal(formatRateFr('5.50'), '5,5\u00a0%');
    assert.equal(formatRateFr('0.00'), '0\u00a0%');
  });
});

describe('ofFr: "de" before a name', () => {
  it('should elide before a vowel, accented or not, and a mute h', () => {
    assert.equal(ofFr('Élodie'), "d'Élodie");
    assert.equal(ofFr('Alice'), "d'Alice");
    assert.equal(ofFr('Œdipe'), "d'Œdipe");
    assert.equal(ofFr('alice@example.com'), "d'alice@example.com");
    assert.equal(ofFr('Hélène'), "d'Hélène");
    assert.equal(ofFr('avril 2027'), "d'avril 2027");
    assert.equal(ofFr('août 2027'), "d'août 2027");
    assert.equal(ofFr('octobre 2027'), "d'octobre 2027");
    assert.equal(ofFr('Yves'), "d'Yves");
    assert.equal(ofFr('Atelier des Planches'), "d'Atelier des Planches");
  });

  it('should keep "de" before a consonant, an aspirated h, a y sounded as a consonant, a digit', () => {
    assert.equal(ofFr('Marc'), 'de Marc');
    assert.equal(ofFr('mars 2027'), 'de mars 2027');
    assert.equal(ofFr('Zoé'), 'de Zoé');
    assert.equal(ofFr('Yann'), 'de Yann');
    assert.equal(ofFr('Hangar 14'), 'de Hangar 14');
    assert.equal(ofFr('Théâtre du Soleil'), 'de Théâtre du Soleil');
    assert.equal(ofFr('2027'), 'de 2027');
    assert.equal(ofFr(''), 'de ');
  });

  it('should contract with a leading article', () => {
    assert.equal(ofFr('Le Chat Noir'), 'du Chat Noir');
    assert.equal(ofFr('Les Tréteaux'), 'des Tréteaux');
    assert.equal(ofFr('La Compagnie'), 'de La Compagnie');
    assert.equal(ofFr("L'Usine"), "de L'Usine");
  });
});
