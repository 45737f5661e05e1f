export default { displayName: '@workcell/bench', preset: '../../jest.preset.js' };
